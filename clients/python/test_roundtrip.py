"""Round trips through the generated models: the schema fixtures of the repository and (when
TOOLNORM_ROUNDTRIP_DIR names a directory of <Definition>.ndjson files, as
scripts/clients-roundtrip.ts writes them from the corpus) toolnorm's real output. Each value is
decoded into its model and encoded again; the result must equal the input and validate with
jsonschema. Run: python3 clients/python/test_roundtrip.py"""
import dataclasses
import json
import os
import re
import sys
import typing
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from toolnorm_client import DEFINITIONS, UNSET, ContractError, from_json, models, to_json, validation_errors  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
STRUCTURAL = {"required", "additionalProperties", "discriminator", "type"}


def fixtures(kind):
    for path in sorted((REPO / "fixtures" / "schema").glob(f"*/{kind}/*.json")):
        if not path.name.endswith(".expect.json"):
            yield path.parts[-3], path


class FixtureRoundTrip(unittest.TestCase):
    def test_valid_fixtures_round_trip_unchanged(self):
        n = 0
        for definition, path in fixtures("valid"):
            value = json.loads(path.read_text())
            with self.subTest(fixture=str(path.relative_to(REPO))):
                self.assertEqual(to_json(from_json(definition, value)), value)
                n += 1
        self.assertGreater(n, 0)

    def test_structurally_invalid_fixtures_are_rejected(self):
        n = 0
        for definition, path in fixtures("invalid"):
            keyword = json.loads(path.with_name(path.name[:-5] + ".expect.json").read_text())["keyword"]
            if keyword not in STRUCTURAL:
                continue
            with self.subTest(fixture=str(path.relative_to(REPO))):
                with self.assertRaises(ContractError):
                    from_json(definition, json.loads(path.read_text()))
                n += 1
        self.assertGreater(n, 0)

    def test_absent_null_and_extra_keys_are_kept_apart(self):
        part = {"id": "p", "name": "Bash", "kind": "bash", "title": "Run ls", "input": None, "state": "complete",
                "metadata": {"exitCode": None, "agentId": "a1", "callId": {"n": 1}}}
        decoded = from_json("NormalizedToolPart", part)
        self.assertIsInstance(decoded, models.CompleteToolPart)
        self.assertIs(decoded.output, UNSET)
        self.assertIsNone(decoded.input)
        self.assertIsNone(decoded.metadata.exit_code)
        self.assertEqual(decoded.metadata.extra, {"agentId": "a1", "callId": {"n": 1}})
        self.assertEqual(to_json(decoded), part)
        self.assertNotIn("output", to_json(decoded))
        self.assertEqual(validation_errors("NormalizedToolPart", decoded), [])

    def test_errors_name_the_path(self):
        with self.assertRaisesRegex(ContractError, r"ToolEvent\.source\.line: expected an integer, got a string"):
            from_json("ToolEvent", {"type": "tool.input.delta", "sessionId": "s", "partId": "p", "at": 0, "delta": "x", "source": {"provider": "claude", "line": "1"}})


# The keys every NormalizedToolPart variant has, by attribute: the same reading on each variant.
PART_KEYS = {"id": "id", "name": "name", "kind": "kind", "title": "title", "input": "input", "timing": "timing", "metadata": "metadata", "state": "state"}


def check_part_attributes(test, part, value):
    """Reads a decoded part through the attributes every variant shares; each must give the JSON's value."""
    for key, attr in PART_KEYS.items():
        got = getattr(part, attr)
        test.assertEqual(UNSET if got is UNSET else to_json(got), value.get(key, UNSET), f"{type(part).__name__}.{attr}")


def union_variants(union):
    return [getattr(models, arg.__forward_arg__) if hasattr(arg, "__forward_arg__") else arg for arg in typing.get_args(union)]


class VariantAttributes(unittest.TestCase):
    def test_part_state_and_common_keys_on_every_variant(self):
        base = {"id": "p1", "name": "Bash", "kind": "bash", "title": "Run ls", "input": {"command": "ls"}, "timing": {"startedAt": 1}, "metadata": {"agentId": "a"}}
        extra = {"error": {"error": {"message": "boom"}}, "complete": {"output": "x"}}
        seen = set()
        for state in ("started", "running", "complete", "error"):
            value = {**base, "state": state, **extra.get(state, {})}
            part = from_json("NormalizedToolPart", value)
            seen.add(type(part))
            self.assertEqual(part.state, state)
            self.assertEqual(part.state, type(part).STATE)
            check_part_attributes(self, part, value)
            self.assertEqual(to_json(part), value)
        self.assertEqual(seen, set(union_variants(models.NormalizedToolPart)))

    def test_every_tag_reads_as_an_attribute(self):
        tagged = [c for c in vars(models).values() if isinstance(c, type) and dataclasses.is_dataclass(c) and c._CONSTS]
        self.assertGreater(len(tagged), 20)
        for cls in tagged:
            bare = cls.__new__(cls)  # the tag is a property: it needs no field
            for key, value in cls._CONSTS.items():
                attr = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", key).lower()
                with self.subTest(cls=cls.__name__, key=key):
                    self.assertEqual(getattr(bare, attr), value)
                    self.assertEqual(getattr(cls, attr.upper()), value)


class CorpusRoundTrip(unittest.TestCase):
    def test_corpus_outputs_round_trip_and_validate(self):
        folder = os.environ.get("TOOLNORM_ROUNDTRIP_DIR")
        if not folder:
            self.skipTest("TOOLNORM_ROUNDTRIP_DIR is not set (scripts/clients-roundtrip.ts sets it)")
        inputs = sorted(p for p in Path(folder).glob("*.ndjson") if not p.name.endswith((".go.ndjson", ".py.ndjson")))
        self.assertTrue(inputs, f"no .ndjson inputs in {folder}")
        for path in inputs:
            definition = path.name[: -len(".ndjson")]
            self.assertIn(definition, DEFINITIONS)
            lines = out = same = parts = 0
            with path.open() as src, path.with_name(f"{definition}.py.ndjson").open("w") as dst:
                for lines, line in enumerate(src, 1):
                    value = json.loads(line)
                    try:
                        decoded = from_json(definition, value)
                        encoded = to_json(decoded)
                    except ContractError as err:
                        self.fail(f"{path.name} line {lines}: {err}")
                    if definition == "NormalizedToolPart":
                        check_part_attributes(self, decoded, value)
                        parts += 1
                    if encoded == value and not validation_errors(definition, encoded):
                        same += 1
                    else:
                        self.fail(f"{path.name} line {lines}: changed or invalid: {json.dumps(encoded)[:300]}")
                    dst.write(json.dumps(encoded) + "\n")
            print(f"python {definition}: {same}/{lines} round-trip unchanged and valid", file=sys.stderr)
            if definition == "NormalizedToolPart":
                print(f"python {definition}: {parts}/{lines} read the same through the shared attributes", file=sys.stderr)
                self.assertGreater(parts, 0)


if __name__ == "__main__":
    unittest.main(verbosity=1)
