"""toolnorm's contract in Python: typed models generated from schema/toolnorm.schema.json
(models.py, by `npm run codegen`) and validation against that schema with `jsonschema`."""
import json
from pathlib import Path
from typing import Any, Dict, List, Optional

from ._runtime import UNSET, ContractError, Unset
from .models import *  # noqa: F401,F403
from .models import DEFINITIONS, from_json, to_json

# The schema travels inside the package (codegen writes a copy beside models.py, and
# pyproject.toml ships it as package data), so a copied or installed package finds it without
# the repository.
SCHEMA_FILE = "toolnorm.schema.json"
_validators: Dict[str, Any] = {}


def _packaged_schema_text() -> str:
    try:
        from importlib.resources import files  # Python 3.9+; also reads from a zip
    except ImportError:  # Python 3.8
        return (Path(__file__).resolve().parent / SCHEMA_FILE).read_text(encoding="utf-8")
    return files(__name__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def load_schema(path: Optional[Path] = None) -> Dict[str, Any]:
    """The contract document: the one shipped in this package, or the file at path."""
    return json.loads(Path(path).read_text(encoding="utf-8") if path else _packaged_schema_text())


def validation_errors(definition: str, value: Any, schema: Optional[Dict[str, Any]] = None) -> List[str]:
    """Every jsonschema error of value against #/$defs/<definition>, as 'path: message' lines."""
    import jsonschema  # Debian: python3-jsonschema; only needed for validation

    if definition not in _validators or schema is not None:
        doc = schema or load_schema()
        cls = jsonschema.validators.validator_for(doc)
        _validators[definition] = cls({"$schema": doc["$schema"], "$id": doc["$id"], "$ref": f"#/$defs/{definition}", "$defs": doc["$defs"]})
    errors = _validators[definition].iter_errors(to_json(value))
    return [f"/{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors]
