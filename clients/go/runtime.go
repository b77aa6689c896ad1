// Hand-written support for the generated types in types_gen.go: the checks and the splicing that
// encoding/json cannot do from struct tags alone (closed objects, required keys, discriminator
// constants, extra keys of open objects, and optional values that may be null).

package toolnorm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// objectShape is what one generated object type declares: its constant keys (discriminator
// tags), its other keys, and which of them are required.
type objectShape struct {
	name     string
	consts   [][2]string // JSON key, JSON-encoded constant value
	known    []string
	required []string
}

func (s *objectShape) declares(key string) bool {
	for _, c := range s.consts {
		if c[0] == key {
			return true
		}
	}
	for _, k := range s.known {
		if k == key {
			return true
		}
	}
	return false
}

// decodeObject reads data as a JSON object and checks it against the shape: every constant key
// present with its value and every required key present. Undeclared keys are not refused here:
// the caller keeps them (Extra of an open object, Unknown of a closed one), and UnmarshalStrict
// refuses the Unknown ones afterwards.
func decodeObject(data []byte, s *objectShape) (map[string]json.RawMessage, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return nil, fmt.Errorf("toolnorm: %s: %w", s.name, err)
	}
	if members == nil {
		return nil, fmt.Errorf("toolnorm: %s: expected an object, got null", s.name)
	}
	for _, c := range s.consts {
		raw, ok := members[c[0]]
		if !ok {
			return nil, fmt.Errorf("toolnorm: %s: missing %q (must be %s)", s.name, c[0], c[1])
		}
		var got, want string
		if json.Unmarshal(raw, &got) != nil || json.Unmarshal([]byte(c[1]), &want) != nil || got != want {
			return nil, fmt.Errorf("toolnorm: %s: %q is %s, must be %s", s.name, c[0], excerpt(raw), c[1])
		}
	}
	for _, k := range s.required {
		if _, ok := members[k]; !ok {
			return nil, fmt.Errorf("toolnorm: %s: missing required key %q", s.name, k)
		}
	}
	return members, nil
}

// extraMembers returns the members an open object does not declare, or nil when there are none.
func extraMembers(members map[string]json.RawMessage, s *objectShape) map[string]json.RawMessage {
	var extra map[string]json.RawMessage
	for k, v := range members {
		if s.declares(k) {
			continue
		}
		if extra == nil {
			extra = map[string]json.RawMessage{}
		}
		extra[k] = v
	}
	return extra
}

// isNull reports whether a member is present and JSON null.
func isNull(members map[string]json.RawMessage, key string) bool {
	raw, ok := members[key]
	return ok && bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

// encodeObject marshals the plain struct value (its fields carry the JSON tags) and splices in
// the constant keys first and an open object's extra keys last, in sorted order.
func encodeObject(value interface{}, s *objectShape, extra map[string]json.RawMessage) ([]byte, error) {
	body, err := json.Marshal(value)
	if err != nil {
		return nil, fmt.Errorf("toolnorm: %s: %w", s.name, err)
	}
	var buf bytes.Buffer
	buf.WriteByte('{')
	n := 0
	comma := func() {
		if n > 0 {
			buf.WriteByte(',')
		}
		n++
	}
	for _, c := range s.consts {
		comma()
		key, _ := json.Marshal(c[0])
		buf.Write(key)
		buf.WriteByte(':')
		buf.WriteString(c[1])
	}
	if inner := bytes.TrimSpace(body[1 : len(body)-1]); len(inner) > 0 {
		comma()
		buf.Write(inner)
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if s.declares(k) {
			return nil, fmt.Errorf("toolnorm: %s: extra key %q is a declared field; set the field instead", s.name, k)
		}
		comma()
		key, _ := json.Marshal(k)
		buf.Write(key)
		buf.WriteByte(':')
		if err := json.Compact(&buf, extra[k]); err != nil {
			return nil, fmt.Errorf("toolnorm: %s: extra key %q: %w", s.name, k, err)
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// decodeError names the type a field decode failed in: a JSON type mismatch gets the field path,
// and an error from a nested toolnorm type gets this type in front of it.
func decodeError(name string, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Errorf("toolnorm: %s.%s: a JSON %s cannot be a Go %s", name, te.Field, te.Value, te.Type)
	}
	if msg := err.Error(); strings.HasPrefix(msg, "toolnorm: ") {
		return errors.New("toolnorm: " + name + " > " + strings.TrimPrefix(msg, "toolnorm: "))
	}
	return fmt.Errorf("toolnorm: %s: %w", name, err)
}

// unionTag reads the discriminator of a tagged union member.
func unionTag(data []byte, union, tag string) (string, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return "", fmt.Errorf("toolnorm: %s: %w", union, err)
	}
	raw, ok := members[tag]
	if !ok {
		return "", fmt.Errorf("toolnorm: %s: missing the discriminator %q", union, tag)
	}
	var value string
	if err := json.Unmarshal(raw, &value); err != nil {
		return "", fmt.Errorf("toolnorm: %s: the discriminator %q is %s, not a string", union, tag, excerpt(raw))
	}
	return value, nil
}

func excerpt(raw []byte) string {
	s := string(bytes.TrimSpace(raw))
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// Nullable is an optional value that may also be JSON null. As a pointer field, nil means the
// key is absent, &Nullable{Null: true} means null, and anything else is the value.
type Nullable[T any] struct {
	Value T
	Null  bool
}

// MarshalJSON writes null or the value.
func (n Nullable[T]) MarshalJSON() ([]byte, error) {
	if n.Null {
		return []byte("null"), nil
	}
	return json.Marshal(n.Value)
}

// UnmarshalJSON reads null or the value.
func (n *Nullable[T]) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		*n = Nullable[T]{Null: true}
		return nil
	}
	n.Null = false
	return json.Unmarshal(data, &n.Value)
}
