// The real Codex CLI (npm `@openai/codex`, whose platform package `@openai/codex-linux-x64` holds the
// binary), installed outside this repo's node_modules: the repo's package.json overrides replace
// the platform binaries with stand-ins for the SDK devDependencies. `.ci/run` installs it into the
// folder named by TOOLNORM_AGENTS_DIR.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CODEX_VERSION = '0.163.0';
/** A model slug the binary knows, so it offers `apply_patch` as a custom tool. */
export const CODEX_MODEL = 'gpt-5.5';
/** The variable Codex reads the provider's key from; the loopback model ignores its value. */
export const CODEX_KEY_ENV = 'TOOLNORM_LOOPBACK_KEY';

/** `<dir>/node_modules/.bin/codex` when installed there. */
export function codexBin(agentsDir: string | undefined): string | undefined {
  if (!agentsDir) return undefined;
  const bin = join(agentsDir, 'node_modules', '.bin', 'codex');
  return existsSync(bin) ? bin : undefined;
}

/**
 * A fresh CODEX_HOME whose only model provider is the loopback model: Responses wire API, a dummy
 * key from the environment (so no login is asked for), no update check, no history file.
 */
export function writeCodexHome(home: string, baseUrl: string): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'config.toml'), [
    `model = "${CODEX_MODEL}"`,
    'model_provider = "loopback"',
    'check_for_update_on_startup = false',
    '[history]',
    'persistence = "none"',
    '[model_providers.loopback]',
    'name = "loopback"',
    `base_url = "${baseUrl}"`,
    'wire_api = "responses"',
    `env_key = "${CODEX_KEY_ENV}"`,
    '',
  ].join('\n'));
}

/**
 * `codex exec --json` as the tests and `npm run record-fixture` run it: no git repo needed, no
 * sandbox (the loopback model's commands touch only the working directory, and Codex's Linux
 * sandbox helper is not set up under a temporary CODEX_HOME), the plan tool on.
 */
export function codexExecArgs(prompt: string): string[] {
  return ['exec', '--json', '--skip-git-repo-check', '-s', 'danger-full-access', '-c', 'tools.update_plan.enabled=true', prompt];
}
