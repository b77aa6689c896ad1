"""toolnorm's contract in Python: typed models generated from schema/toolnorm.schema.json
(models.py, by `npm run codegen`) and validation against that schema with `jsonschema`."""
import json
from pathlib import Path
from typing import Any, Dict, List, Optional

from ._runtime import UNSET, ContractError, Unset
from .models import *  # noqa: F401,F403
from .models import DEFINITIONS, from_json, to_json

_SCHEMA_PATH = Path(__file__).resolve().parents[3] / "schema" / "toolnorm.schema.json"
_validators: Dict[str, Any] = {}


def load_schema(path: Optional[Path] = None) -> Dict[str, Any]:
    """The contract document; by default the one in this repository."""
    return json.loads((path or _SCHEMA_PATH).read_text())


def validation_errors(definition: str, value: Any, schema: Optional[Dict[str, Any]] = None) -> List[str]:
    """Every jsonschema error of value against #/$defs/<definition>, as 'path: message' lines."""
    import jsonschema  # Debian: python3-jsonschema; only needed for validation

    if definition not in _validators or schema is not None:
        doc = schema or load_schema()
        cls = jsonschema.validators.validator_for(doc)
        _validators[definition] = cls({"$schema": doc["$schema"], "$id": doc["$id"], "$ref": f"#/$defs/{definition}", "$defs": doc["$defs"]})
    errors = _validators[definition].iter_errors(to_json(value))
    return [f"/{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors]
