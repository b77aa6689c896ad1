#!/usr/bin/env python3
"""The non-TypeScript client check: validates every schema fixture against
schema/toolnorm.schema.json with nothing but Python's `jsonschema`, and compares each verdict with
the one ajv gave (passed in as a JSON file). Exit 1 on any disagreement."""
import json
import sys
from pathlib import Path

import jsonschema

def main() -> int:
    repo = Path(__file__).resolve().parent.parent
    doc = json.loads((repo / "schema" / "toolnorm.schema.json").read_text())
    verdicts = json.loads(Path(sys.argv[1]).read_text())
    cls = jsonschema.validators.validator_for(doc)
    cls.check_schema(doc)
    validators = {}
    disagree = []
    for v in verdicts:
        name = v["definition"]
        if name not in validators:
            # Validate against one definition of the document; $ref resolves inside the same root.
            validators[name] = cls({"$schema": doc["$schema"], "$id": doc["$id"], "$ref": f"#/$defs/{name}", "$defs": doc["$defs"]})
        value = json.loads((repo / v["file"]).read_text())
        ok = validators[name].is_valid(value)
        if ok != v["ajv"] or ok != v["expectValid"]:
            disagree.append(f'{v["file"]}: python={ok} ajv={v["ajv"]} expected={v["expectValid"]}')
    print(f"python jsonschema ({cls.__name__}): {len(verdicts) - len(disagree)}/{len(verdicts)} fixtures agree with ajv and their folder")
    for d in disagree:
        print("  DISAGREE " + d)
    return 1 if disagree else 0

if __name__ == "__main__":
    sys.exit(main())
