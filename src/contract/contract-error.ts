/** One failed rule: where in the value (JSON pointer) and what the schema says. */
export interface ContractIssue {
  instancePath: string;
  keyword: string;
  message: string;
  params?: Record<string, unknown>;
}

/** Thrown by the generated `assertX` helpers; its message lists every instancePath and message. */
export class ContractError extends Error {
  readonly definition: string;
  readonly issues: readonly ContractIssue[];

  constructor(definition: string, issues: readonly ContractIssue[]) {
    const lines = issues.map((i) => `  ${i.instancePath || '(root)'}: ${i.message} [${i.keyword}]`);
    super(`value is not a valid ${definition}:\n${lines.join('\n')}`);
    this.name = 'ContractError';
    this.definition = definition;
    this.issues = issues;
  }
}

interface AjvLikeError { instancePath: string; keyword: string; message?: string; params?: Record<string, unknown> }

export function issuesOf(errors: readonly AjvLikeError[] | null | undefined): ContractIssue[] {
  return (errors ?? []).map((e) => ({
    instancePath: e.instancePath,
    keyword: e.keyword,
    message: describeParams(e),
    params: e.params,
  }));
}

function describeParams(e: AjvLikeError): string {
  const base = e.message ?? 'is invalid';
  if (e.keyword === 'additionalProperties' && e.params?.additionalProperty) return `${base}: "${String(e.params.additionalProperty)}"`;
  if (e.keyword === 'enum' && Array.isArray(e.params?.allowedValues)) return `${base}: ${(e.params.allowedValues as unknown[]).join(', ')}`;
  return base;
}
