// Hand-written: the strict reading of a decoded value. Decoding is lenient about keys a closed
// object does not declare (they go to its Unknown map and are written back), so a reader built
// from an older schema keeps working when toolnorm adds an optional key; UnmarshalStrict and
// CheckKnown are for code that must match this schema exactly (tests, producers).

package toolnorm

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// UnmarshalStrict decodes data into v as json.Unmarshal does, then fails if any closed object in
// it held a key the schema does not declare: the error names the object and the key, e.g.
// `toolnorm: ToolStartedEvent > EventSource: unknown key "offset" (the schema closes this object) at /source`.
func UnmarshalStrict(data []byte, v interface{}) error {
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	return CheckKnown(v)
}

// CheckKnown returns an error for the first closed object in v (depth first, in field order)
// whose Unknown map is not empty, or nil when every key in v is one the schema declares.
func CheckKnown(v interface{}) error {
	return checkKnown(reflect.ValueOf(v), nil, "")
}

var rawMapType = reflect.TypeOf(map[string]json.RawMessage(nil))
var rawType = reflect.TypeOf(json.RawMessage(nil))

// isObject reports whether a struct type is a generated object type: it has the Extra (open) or
// Unknown (closed) map. Union holders, Nullable, scalar unions and the shared-field structs do not.
func isObject(t reflect.Type) bool {
	for _, name := range []string{"Extra", "Unknown"} {
		if f, ok := t.FieldByName(name); ok && len(f.Index) == 1 && f.Type == rawMapType {
			return true
		}
	}
	return false
}

func checkKnown(v reflect.Value, types []string, pointer string) error {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return checkKnown(v.Elem(), types, pointer)
	case reflect.Slice, reflect.Array:
		if v.Type() == rawType {
			return nil
		}
		for i := 0; i < v.Len(); i++ {
			if err := checkKnown(v.Index(i), types, pointer+"/"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		if v.Type().Elem() == rawType {
			return nil
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		for _, k := range keys {
			if err := checkKnown(v.MapIndex(k), types, pointer+"/"+escapePointer(k.String())); err != nil {
				return err
			}
		}
	case reflect.Struct:
		t := v.Type()
		if isObject(t) {
			types = append(types[:len(types):len(types)], t.Name())
			if u := v.FieldByName("Unknown"); u.IsValid() && u.Type() == rawMapType && u.Len() > 0 {
				var names []string
				for _, k := range u.MapKeys() {
					names = append(names, strconv.Quote(k.String()))
				}
				sort.Strings(names)
				at := ""
				if pointer != "" {
					at = " at " + pointer
				}
				return fmt.Errorf("toolnorm: %s: unknown key %s (the schema closes this object)%s", strings.Join(types, " > "), strings.Join(names, ", "), at)
			}
		}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() || f.Name == "Extra" || f.Name == "Unknown" {
				continue
			}
			// Fields without a JSON name (a union's Value, an embedded shared-field struct,
			// Nullable's Value) sit at the same place in the JSON as their holder.
			at := pointer
			if name := strings.Split(f.Tag.Get("json"), ",")[0]; name != "" && name != "-" {
				at = pointer + "/" + escapePointer(name)
			}
			if err := checkKnown(v.Field(i), types, at); err != nil {
				return err
			}
		}
	}
	return nil
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
