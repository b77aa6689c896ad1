package toolnorm

// Round trips through the generated types: the schema fixtures of the repository, and (when
// TOOLNORM_ROUNDTRIP_DIR names a directory of <Definition>.ndjson files, as
// scripts/clients-roundtrip.ts writes them from the corpus) toolnorm's real output. Each value is
// decoded into its Go type and encoded again; the result must equal the input as JSON.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

func roundTrip(name string, data []byte) ([]byte, error) {
	v, ok := NewDefinition(name)
	if !ok {
		return nil, fmt.Errorf("no Go type for definition %s", name)
	}
	// Strict: toolnorm's own output and the fixtures must match this schema exactly.
	if err := UnmarshalStrict(data, v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

func jsonEqual(a, b []byte) (bool, error) {
	var x, y interface{}
	if err := json.Unmarshal(a, &x); err != nil {
		return false, err
	}
	if err := json.Unmarshal(b, &y); err != nil {
		return false, err
	}
	return reflect.DeepEqual(x, y), nil
}

// Invalid fixtures breaking one of these rules must not decode: they are the structural rules
// the Go types enforce. Value rules (enum, minLength, pattern, minimum) are left to a validator.
var structuralKeywords = map[string]bool{"required": true, "additionalProperties": true, "discriminator": true, "type": true}

func TestSchemaFixturesRoundTrip(t *testing.T) {
	root := filepath.Join("..", "..", "fixtures", "schema")
	defs, err := os.ReadDir(root)
	if err != nil {
		t.Fatalf("reading %s: %v", root, err)
	}
	valid, rejected := 0, 0
	for _, def := range defs {
		for _, kind := range []string{"valid", "invalid"} {
			files, _ := filepath.Glob(filepath.Join(root, def.Name(), kind, "*.json"))
			for _, file := range files {
				if strings.HasSuffix(file, ".expect.json") {
					continue
				}
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				out, err := roundTrip(def.Name(), data)
				if kind == "valid" {
					if err != nil {
						t.Errorf("%s: %v", file, err)
						continue
					}
					if eq, err := jsonEqual(data, out); err != nil || !eq {
						t.Errorf("%s: round trip changed the value:\n  in:  %s\n  out: %s", file, bytes.TrimSpace(data), out)
					}
					valid++
					continue
				}
				var expect struct{ Keyword string }
				raw, readErr := os.ReadFile(strings.TrimSuffix(file, ".json") + ".expect.json")
				if readErr != nil || json.Unmarshal(raw, &expect) != nil {
					t.Errorf("%s: no readable .expect.json", file)
					continue
				}
				if structuralKeywords[expect.Keyword] {
					if err == nil {
						t.Errorf("%s breaks %q but decoded into %s", file, expect.Keyword, def.Name())
					}
					rejected++
				}
			}
		}
	}
	if valid == 0 || rejected == 0 {
		t.Fatalf("found %d valid and %d structurally invalid fixtures; expected some of each", valid, rejected)
	}
	t.Logf("%d valid fixtures round-trip; %d structurally invalid fixtures are rejected", valid, rejected)
}

// TestCorpusRoundTrip reads every <Definition>.ndjson in TOOLNORM_ROUNDTRIP_DIR and writes what
// the Go types encode to <Definition>.go.ndjson beside it, line for line, for the caller to check
// with toolnorm's validators; it fails itself on any line that does not decode or comes back
// different.
func TestCorpusRoundTrip(t *testing.T) {
	dir := os.Getenv("TOOLNORM_ROUNDTRIP_DIR")
	if dir == "" {
		t.Skip("TOOLNORM_ROUNDTRIP_DIR is not set (scripts/clients-roundtrip.ts sets it)")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.ndjson"))
	var inputs []string
	for _, f := range files {
		if !strings.HasSuffix(f, ".go.ndjson") && !strings.HasSuffix(f, ".py.ndjson") {
			inputs = append(inputs, f)
		}
	}
	sort.Strings(inputs)
	if len(inputs) == 0 {
		t.Fatalf("no .ndjson inputs in %s", dir)
	}
	for _, file := range inputs {
		name := strings.TrimSuffix(filepath.Base(file), ".ndjson")
		in, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		scanner := bufio.NewScanner(in)
		scanner.Buffer(make([]byte, 1<<20), 1<<30)
		lines, same, parts := 0, 0, 0
		for scanner.Scan() {
			line := scanner.Bytes()
			lines++
			if name == "NormalizedToolPart" {
				if err := checkPartAccessors(line); err != nil {
					t.Errorf("%s line %d: %v", filepath.Base(file), lines, err)
				} else {
					parts++
				}
			}
			encoded, err := roundTrip(name, line)
			if err != nil {
				t.Errorf("%s line %d: %v", filepath.Base(file), lines, err)
				out.WriteString("null\n")
				continue
			}
			if eq, _ := jsonEqual(line, encoded); eq {
				same++
			} else {
				t.Errorf("%s line %d: round trip changed the value:\n  in:  %.300s\n  out: %.300s", filepath.Base(file), lines, line, encoded)
			}
			out.Write(encoded)
			out.WriteByte('\n')
		}
		in.Close()
		if err := scanner.Err(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(strings.TrimSuffix(file, ".ndjson")+".go.ndjson", out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d/%d round-trip unchanged", name, same, lines)
		if name == "NormalizedToolPart" {
			fmt.Fprintf(os.Stderr, "go %s: %d/%d read the same through the Part accessors\n", name, parts, lines)
			if parts == 0 {
				t.Errorf("no corpus part was read through the Part accessors")
			}
		}
	}
}

// checkPartAccessors decodes a part and reads it through the Part interface only (no type
// switch): every accessor must give the value the JSON holds.
func checkPartAccessors(line []byte) error {
	var u NormalizedToolPart
	if err := UnmarshalStrict(line, &u); err != nil {
		return err
	}
	var part Part = u.Value
	var want map[string]json.RawMessage
	if err := json.Unmarshal(line, &want); err != nil {
		return err
	}
	str := func(key string) string {
		var s string
		_ = json.Unmarshal(want[key], &s)
		return s
	}
	encoded := func(v interface{}) string {
		if reflect.ValueOf(v).IsNil() {
			return ""
		}
		b, _ := json.Marshal(v)
		return string(b)
	}
	compact := func(raw json.RawMessage) string {
		var b bytes.Buffer
		_ = json.Compact(&b, raw)
		return b.String()
	}
	got := []string{part.ID(), part.Name(), string(part.Kind()), part.Title(), string(part.State()), compact(part.Input()), encoded(part.Timing()), encoded(part.Metadata())}
	exp := []string{str("id"), str("name"), str("kind"), str("title"), str("state"), compact(want["input"]), compact(want["timing"]), compact(want["metadata"])}
	for i, key := range []string{"id", "name", "kind", "title", "state", "input", "timing", "metadata"} {
		if key == "timing" || key == "metadata" {
			// Re-encoded objects may order keys differently: compare as JSON.
			if (got[i] == "") != (exp[i] == "") {
				return fmt.Errorf("Part.%s: presence differs: got %q, want %q", key, got[i], exp[i])
			}
			if got[i] != "" {
				if eq, _ := jsonEqual([]byte(got[i]), []byte(exp[i])); !eq {
					return fmt.Errorf("Part.%s: got %s, want %s", key, got[i], exp[i])
				}
			}
			continue
		}
		if got[i] != exp[i] {
			return fmt.Errorf("Part.%s: got %q, want %q", key, got[i], exp[i])
		}
	}
	return nil
}

func TestAbsentNullAndExtraKeysStayApart(t *testing.T) {
	in := []byte(`{"id":"p","name":"Bash","kind":"bash","title":"Run ls","input":null,"state":"complete","metadata":{"exitCode":null,"agentId":"a1","callId":{"n":1}}}`)
	var part NormalizedToolPart
	if err := json.Unmarshal(in, &part); err != nil {
		t.Fatal(err)
	}
	complete, ok := part.Value.(*CompleteToolPart)
	if !ok {
		t.Fatalf("decoded variant is %T, want *CompleteToolPart", part.Value)
	}
	if complete.Output != nil {
		t.Errorf("absent output decoded as %s", complete.Output)
	}
	if string(complete.Input()) != "null" {
		t.Errorf("null input decoded as %q", complete.Input())
	}
	if complete.Metadata().ExitCode == nil || !complete.Metadata().ExitCode.Null {
		t.Errorf("null exitCode decoded as %+v", complete.Metadata().ExitCode)
	}
	if string(complete.Metadata().Extra["agentId"]) != `"a1"` || string(complete.Metadata().Extra["callId"]) != `{"n":1}` {
		t.Errorf("extra metadata keys: %v", complete.Metadata().Extra)
	}
	out, err := json.Marshal(part)
	if err != nil {
		t.Fatal(err)
	}
	if eq, _ := jsonEqual(in, out); !eq {
		t.Errorf("round trip changed the part:\n  in:  %s\n  out: %s", in, out)
	}
	if bytes.Contains(out, []byte(`"output"`)) {
		t.Errorf("an absent output came back: %s", out)
	}
}

func TestDecodeErrorsNameTheTypeAndKey(t *testing.T) {
	cases := map[string]string{
		`{"type":"tool.started","sessionId":"s","partId":"p","at":0,"source":{"provider":"claude"},"name":"Bash","kind":"bash","title":"Run","bogus":1}`:          `ToolStartedEvent: unknown key "bogus" (the schema closes this object)`,
		`{"type":"tool.started","sessionId":"s","partId":"p","at":0,"source":{"provider":"claude","offset":1,"col":2},"name":"Bash","kind":"bash","title":"Run"}`: `ToolStartedEvent > EventSource: unknown key "col" (the schema closes this object) at /source`,
		`{"type":"tool.started","sessionId":"s","partId":"p","at":0,"source":{"provider":"claude"},"kind":"bash","title":"Run"}`:                                  `ToolStartedEvent: missing required key "name"`,
		`{"type":"tool.finished","sessionId":"s"}`: `ToolEvent: unknown "type" "tool.finished"`,
		`{"sessionId":"s"}`:                        `ToolEvent: missing the discriminator "type"`,
		`{"type":"tool.input.delta","sessionId":"s","partId":"p","at":0,"delta":"x","source":{"provider":"claude","line":"1"}}`: `ToolInputDeltaEvent > EventSource.line: a JSON string cannot be a Go int64`,
	}
	for in, want := range cases {
		var e ToolEvent
		err := UnmarshalStrict([]byte(in), &e)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("decoding %s: got error %v, want one containing %q", in, err, want)
		}
	}
}
