package toolnorm_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"log"
	"strings"

	toolnorm "toolnorm.dev/clients/go"
)

// Reading `toolnorm normalize --to events` output (docs/clients.md).
func Example() {
	input := `{"type":"tool.started","sessionId":"s","partId":"t1","at":0,"source":{"provider":"claude"},"name":"Bash","kind":"bash","title":"Run ls","input":{"command":"ls"}}
{"type":"tool.failed","sessionId":"s","partId":"t1","at":5,"source":{"provider":"claude"},"error":{"message":"exit 2","code":"exit_nonzero"},"metadata":{"exitCode":2,"agentId":"a1"}}`
	scanner := bufio.NewScanner(strings.NewReader(input))
	for scanner.Scan() {
		var ev toolnorm.ToolEvent
		if err := json.Unmarshal(scanner.Bytes(), &ev); err != nil {
			log.Fatal(err)
		}
		switch e := ev.Value.(type) {
		case *toolnorm.ToolStartedEvent:
			fmt.Println(e.PartID, e.Kind, e.Title)
		case *toolnorm.ToolFailedEvent:
			fmt.Println(e.PartID, e.Error.Message, e.Metadata.ExitCode.Value, string(e.Metadata.Extra["agentId"]))
		}
	}
	// Output:
	// t1 bash Run ls
	// t1 exit 2 2 "a1"
}

// Reading `toolnorm normalize --to parts` output through the Part accessors, whatever the state,
// and the unknown keys a lenient decode kept (docs/clients.md).
func ExamplePart() {
	input := `{"id":"t1","name":"Bash","kind":"bash","title":"Run ls","input":{"command":"ls"},"state":"running"}
{"id":"t1","name":"Bash","kind":"bash","title":"Run ls","input":{"command":"ls"},"state":"error","error":{"message":"exit 2"},"attempt":2}`
	scanner := bufio.NewScanner(strings.NewReader(input))
	for scanner.Scan() {
		var part toolnorm.NormalizedToolPart
		if err := json.Unmarshal(scanner.Bytes(), &part); err != nil {
			log.Fatal(err)
		}
		p := part.Value
		fmt.Println(p.ID(), p.State(), p.Title())
		if failed, ok := p.(*toolnorm.ErrorToolPart); ok {
			fmt.Println(failed.Error.Message, string(failed.Unknown["attempt"]), toolnorm.CheckKnown(failed) != nil)
		}
	}
	// Output:
	// t1 running Run ls
	// t1 error Run ls
	// exit 2 2 true
}
