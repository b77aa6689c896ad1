import { HEADER } from './header.js';

/**
 * `generated/index.ts`: what the schema alone decides — the entry-point list, each entry point's
 * type and its validator. It imports only its siblings; the guards (`isX`, `assertX`,
 * `issuesOfX`) and `ContractError` are hand-written in src/contract/.
 */
export function genIndex(entries: readonly string[]): string {
  return `${HEADER}import type { CompiledValidator } from './validators.js';
import * as v from './validators.js';
import type * as T from './types.js';

export type * from './types.js';
export * from './validators.js';

export const ENTRY_POINTS = ${JSON.stringify(entries)} as const;
export type EntryPoint = (typeof ENTRY_POINTS)[number];

/** The type each entry point validates. */
export interface EntryTypes {
${entries.map((e) => `  ${e}: T.${e};`).join('\n')}
}

/** Validators by definition name, for code that picks the definition at run time. */
export const validators: Record<EntryPoint, CompiledValidator> = {
${entries.map((e) => `  ${e}: v.validate${e},`).join('\n')}
};
`;
}
