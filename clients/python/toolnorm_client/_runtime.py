"""Hand-written support for the generated models in models.py: decoding checks with a path in
every error, the UNSET marker that keeps an absent key apart from null, and encoding back."""
from typing import Any, Callable, Dict, Iterable, List, Tuple

Decoder = Callable[[Any, str], Any]


class ContractError(ValueError):
    """A value does not have the shape of the definition it was decoded as; the message names the path."""


class Unset:
    """The type of UNSET: an optional key that is absent (None would be a JSON null)."""

    _instance = None

    def __new__(cls) -> "Unset":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET = Unset()


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _fail(path: str, want: str, value: Any) -> ContractError:
    return ContractError(f"{path}: expected {want}, got {_kind(value)}")


def object_of(value: Any, path: str, consts: Dict[str, str], known: Tuple[str, ...], required: Tuple[str, ...], open_: bool) -> Dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(path, "an object", value)
    for key, want in consts.items():
        if value.get(key) != want:
            raise ContractError(f"{path}.{key}: must be {want!r}, got {value.get(key)!r}")
    for key in required:
        if key not in value:
            raise ContractError(f"{path}: missing required key {key!r}")
    if not open_:
        unknown = sorted(k for k in value if k not in known and k not in consts)
        if unknown:
            raise ContractError(f"{path}: unknown key {', '.join(map(repr, unknown))} (the schema closes this object)")
    return value


def extra_of(value: Dict[str, Any], consts: Dict[str, str], known: Tuple[str, ...]) -> Dict[str, Any]:
    return {k: v for k, v in value.items() if k not in known and k not in consts}


def opt(obj: Dict[str, Any], key: str, decode: Decoder, path: str) -> Any:
    return decode(obj[key], f"{path}.{key}") if key in obj else UNSET


def string(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise _fail(path, "a string", value)
    return value


def integer(value: Any, path: str) -> int:
    if isinstance(value, bool) or not (isinstance(value, int) or (isinstance(value, float) and value.is_integer())):
        raise _fail(path, "an integer", value)
    return value


def number(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _fail(path, "a number", value)
    return value


def boolean(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(path, "a boolean", value)
    return value


def anything(value: Any, path: str) -> Any:
    return value


def enum_of(values: Iterable[str]) -> Decoder:
    """Enum values are checked as strings only; membership is a value rule, left to validate()."""
    return string


def list_of(item: Decoder) -> Decoder:
    def decode(value: Any, path: str) -> List[Any]:
        if not isinstance(value, list):
            raise _fail(path, "an array", value)
        return [item(v, f"{path}[{i}]") for i, v in enumerate(value)]
    return decode


def map_of(item: Decoder) -> Decoder:
    def decode(value: Any, path: str) -> Dict[str, Any]:
        if not isinstance(value, dict):
            raise _fail(path, "an object", value)
        return {k: item(v, f"{path}.{k}") for k, v in value.items()}
    return decode


def nullable(inner: Decoder) -> Decoder:
    return lambda value, path: None if value is None else inner(value, path)


_SCALAR_CHECKS: Dict[str, Decoder] = {"string": string, "integer": integer, "number": number, "boolean": boolean}


def scalars_of(branches: Tuple[str, ...]) -> Decoder:
    def decode(value: Any, path: str) -> Any:
        for b in branches:
            try:
                return _SCALAR_CHECKS[b](value, path)
            except ContractError:
                pass
        raise _fail(path, " or ".join(f"a {b}" for b in branches), value)
    return decode


def tag_of(value: Any, path: str, tag: str) -> str:
    if not isinstance(value, dict):
        raise _fail(path, "an object", value)
    if tag not in value:
        raise ContractError(f"{path}: missing the discriminator {tag!r}")
    return string(value[tag], f"{path}.{tag}")


def encode(value: Any) -> Any:
    """JSON data of a model, a list or dict of models, or plain JSON data (returned as is)."""
    to_json = getattr(value, "to_json", None)
    if to_json is not None:
        return to_json()
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    return value


def merge_extra(out: Dict[str, Any], extra: Dict[str, Any], name: str) -> Dict[str, Any]:
    for key, value in extra.items():
        if key in out:
            raise ContractError(f"{name}: extra key {key!r} is a declared field; set the field instead")
        out[key] = value
    return out
