// @ericcornelissen/bash-parser ships no types; the command gate reads its AST through its own
// narrow interfaces (gates/shell.ts).
declare module '@ericcornelissen/bash-parser' {
  const parse: (text: string, options?: Record<string, unknown>) => { type: string; [k: string]: unknown };
  export default parse;
}
