// The guards over the generated validators: `isX` narrows, `assertX` returns the value typed or
// throws a ContractError naming every failed rule, `issuesOfX` lists those rules. Hand-written,
// so generated/ stays free of imports from src/; the contract test checks that every entry point
// has its three guards here.
import { validators, type EntryPoint, type EntryTypes } from '../../generated/index.js';
import { ContractError, issuesOf, type ContractIssue } from './contract-error.js';

/** Type guard for any entry point, picked by name. */
export function isValid<K extends EntryPoint>(definition: K, value: unknown): value is EntryTypes[K] {
  return validators[definition](value);
}

/** The value typed as the entry point, or a ContractError listing every instancePath and message. */
export function assertValid<K extends EntryPoint>(definition: K, value: unknown): EntryTypes[K] {
  const validate = validators[definition];
  if (validate(value)) return value as EntryTypes[K];
  throw new ContractError(definition, issuesOf(validate.errors as never));
}

/** The issues of a failed validation, or [] when the value is valid. */
export function issuesOfValue(definition: EntryPoint, value: unknown): ContractIssue[] {
  const validate = validators[definition];
  return validate(value) ? [] : issuesOf(validate.errors as never);
}

type Is<K extends EntryPoint> = (value: unknown) => value is EntryTypes[K];
type Assert<K extends EntryPoint> = (value: unknown) => EntryTypes[K];
type Issues = (value: unknown) => ContractIssue[];

const is = <K extends EntryPoint>(d: K): Is<K> => (value): value is EntryTypes[K] => isValid(d, value);
const assert = <K extends EntryPoint>(d: K): Assert<K> => (value) => assertValid(d, value);
const issues = (d: EntryPoint): Issues => (value) => issuesOfValue(d, value);

export const isNormalizedToolPart = is('NormalizedToolPart');
export const assertNormalizedToolPart = assert('NormalizedToolPart');
export const issuesOfNormalizedToolPart = issues('NormalizedToolPart');

export const isToolEvent = is('ToolEvent');
export const assertToolEvent = assert('ToolEvent');
export const issuesOfToolEvent = issues('ToolEvent');

export const isDiagnostic = is('Diagnostic');
export const assertDiagnostic = assert('Diagnostic');
export const issuesOfDiagnostic = issues('Diagnostic');

export const isAcpSessionUpdateParams = is('AcpSessionUpdateParams');
export const assertAcpSessionUpdateParams = assert('AcpSessionUpdateParams');
export const issuesOfAcpSessionUpdateParams = issues('AcpSessionUpdateParams');

export const isUiToolPart = is('UiToolPart');
export const assertUiToolPart = assert('UiToolPart');
export const issuesOfUiToolPart = issues('UiToolPart');

export const isOutputCompressionSpec = is('OutputCompressionSpec');
export const assertOutputCompressionSpec = assert('OutputCompressionSpec');
export const issuesOfOutputCompressionSpec = issues('OutputCompressionSpec');

export const isCompressionRecord = is('CompressionRecord');
export const assertCompressionRecord = assert('CompressionRecord');
export const issuesOfCompressionRecord = issues('CompressionRecord');

export const isToolInvocationRecord = is('ToolInvocationRecord');
export const assertToolInvocationRecord = assert('ToolInvocationRecord');
export const issuesOfToolInvocationRecord = issues('ToolInvocationRecord');

export const isToolCallAssessmentRecord = is('ToolCallAssessmentRecord');
export const assertToolCallAssessmentRecord = assert('ToolCallAssessmentRecord');
export const issuesOfToolCallAssessmentRecord = issues('ToolCallAssessmentRecord');

export const isFileMutationRecord = is('FileMutationRecord');
export const assertFileMutationRecord = assert('FileMutationRecord');
export const issuesOfFileMutationRecord = issues('FileMutationRecord');

export const isValidationResult = is('ValidationResult');
export const assertValidationResult = assert('ValidationResult');
export const issuesOfValidationResult = issues('ValidationResult');

export const isToolOutput = is('ToolOutput');
export const assertToolOutput = assert('ToolOutput');
export const issuesOfToolOutput = issues('ToolOutput');
