package toolnorm

// The Part interface on every variant, and the lenient default decode with its strict
// counterpart (docs/clients.md).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// One part per state, sharing every common key; the error part also has its error.
var partsByState = map[ToolState]string{
	ToolStateStarted:  `{"id":"p1","name":"Bash","kind":"bash","title":"Run ls","input":{"command":"ls"},"state":"started","timing":{"startedAt":1},"metadata":{"agentId":"a"}}`,
	ToolStateRunning:  `{"id":"p1","name":"Bash","kind":"bash","title":"Run ls","input":{"command":"ls"},"state":"running","timing":{"startedAt":1},"metadata":{"agentId":"a"}}`,
	ToolStateComplete: `{"id":"p1","name":"Bash","kind":"bash","title":"Run ls","input":{"command":"ls"},"state":"complete","timing":{"startedAt":1},"metadata":{"agentId":"a"},"output":"x"}`,
	ToolStateError:    `{"id":"p1","name":"Bash","kind":"bash","title":"Run ls","input":{"command":"ls"},"state":"error","timing":{"startedAt":1},"metadata":{"agentId":"a"},"error":{"message":"boom"}}`,
}

func TestPartAccessorsOnEveryVariant(t *testing.T) {
	seen := map[string]bool{}
	for state, in := range partsByState {
		var u NormalizedToolPart
		if err := UnmarshalStrict([]byte(in), &u); err != nil {
			t.Fatalf("%s: %v", state, err)
		}
		var p Part = u.Value // no type switch: every variant is a Part
		seen[strings.TrimPrefix(fmt.Sprintf("%T", p), "*toolnorm.")] = true
		if p.State() != state || !p.State().Valid() {
			t.Errorf("%T.State() = %q, want %q", p, p.State(), state)
		}
		if p.ID() != "p1" || p.Name() != "Bash" || p.Kind() != ToolKindBash || p.Title() != "Run ls" || string(p.Input()) != `{"command":"ls"}` {
			t.Errorf("%T: accessors read %q %q %q %q %s", p, p.ID(), p.Name(), p.Kind(), p.Title(), p.Input())
		}
		if p.Timing() == nil || p.Timing().StartedAt == nil || p.Metadata() == nil || string(p.Metadata().Extra["agentId"]) != `"a"` {
			t.Errorf("%T: timing %+v, metadata %+v", p, p.Timing(), p.Metadata())
		}
		out, err := json.Marshal(u)
		if err != nil {
			t.Fatal(err)
		}
		if eq, _ := jsonEqual([]byte(in), out); !eq {
			t.Errorf("%s: round trip changed the part:\n  in:  %s\n  out: %s", state, in, out)
		}
	}
	for _, name := range []string{"StartedToolPart", "RunningToolPart", "CompleteToolPart", "ErrorToolPart"} {
		if !seen[name] {
			t.Errorf("no %s decoded; seen %v", name, seen)
		}
	}
	// The shared keys are set through the embedded PartFields.
	p := &CompleteToolPart{PartFields: PartFields{ID: "p2", Name: "Read", Kind: ToolKindFileRead, Title: "Read a", Input: json.RawMessage(`{}`)}}
	out, err := json.Marshal(NormalizedToolPart{Value: p})
	if err != nil || string(out) != `{"state":"complete","id":"p2","name":"Read","kind":"file_read","title":"Read a","input":{}}` {
		t.Errorf("encoding a built part: %s, %v", out, err)
	}
}

func TestLenientDecodeKeepsAnUnknownOptionalKey(t *testing.T) {
	// A part from a newer schema: "attempt" at the top and "queuedAt" in timing are keys this
	// schema does not declare in those closed objects.
	in := []byte(`{"id":"p1","name":"Bash","kind":"bash","title":"Run ls","input":null,"state":"complete","attempt":2,"timing":{"startedAt":1,"queuedAt":0}}`)
	var u NormalizedToolPart
	if err := json.Unmarshal(in, &u); err != nil {
		t.Fatalf("the default (lenient) decode refused a new optional key: %v", err)
	}
	p := u.Value.(*CompleteToolPart)
	if string(p.Unknown["attempt"]) != "2" || string(p.Timing().Unknown["queuedAt"]) != "0" || p.ID() != "p1" {
		t.Errorf("unknown keys kept: part %v, timing %v", p.Unknown, p.Timing().Unknown)
	}
	out, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	if eq, _ := jsonEqual(in, out); !eq {
		t.Errorf("the unknown keys did not come back unchanged:\n  in:  %s\n  out: %s", in, out)
	}
	// Strict refuses the same bytes, naming the first object and key.
	err = UnmarshalStrict(in, &NormalizedToolPart{})
	if err == nil || err.Error() != `toolnorm: CompleteToolPart: unknown key "attempt" (the schema closes this object)` {
		t.Errorf("strict decode: got %v", err)
	}
	if err := CheckKnown(&u); err == nil {
		t.Errorf("CheckKnown found nothing in a part with unknown keys")
	}
	// Control: without the new keys, strict accepts the part.
	known := bytes.Replace(bytes.Replace(in, []byte(`"attempt":2,`), nil, 1), []byte(`,"queuedAt":0`), nil, 1)
	if err := UnmarshalStrict(known, &NormalizedToolPart{}); err != nil {
		t.Errorf("strict decode of the known keys only: %v", err)
	}
	// Leniency is about keys only: a missing required key still fails.
	if err := json.Unmarshal(bytes.Replace(in, []byte(`"name":"Bash",`), nil, 1), &NormalizedToolPart{}); err == nil || !strings.Contains(err.Error(), `missing required key "name"`) {
		t.Errorf("lenient decode of a part without name: %v", err)
	}
	// Nested: the first unknown key is named with its JSON pointer.
	timingOnly := bytes.Replace(in, []byte(`"attempt":2,`), nil, 1)
	if err := UnmarshalStrict(timingOnly, &NormalizedToolPart{}); err == nil || err.Error() != `toolnorm: CompleteToolPart > ToolTiming: unknown key "queuedAt" (the schema closes this object) at /timing` {
		t.Errorf("strict decode, nested: %v", err)
	}
}
