// tsc does not copy plain .js files or set the executable bit: copy the generated validators
// next to their compiled siblings and make the CLI runnable as `npx toolnorm`.
import { chmodSync, copyFileSync, existsSync } from 'node:fs';
const root = new URL('../', import.meta.url);
for (const f of ['validators.js', 'validators.d.ts']) copyFileSync(new URL(`generated/${f}`, root), new URL(`dist/generated/${f}`, root));
const bin = new URL('dist/src/cli/main.js', root);
if (existsSync(bin)) chmodSync(bin, 0o755);
