// The real Claude Code CLI: the `claude` binary of npm `@anthropic-ai/claude-agent-sdk-linux-x64`
// (0.3.332 carries Claude Code 2.1.332), installed outside this repo's node_modules like Codex
// (codex.ts), into TOOLNORM_AGENTS_DIR.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const CLAUDE_PACKAGE = '@anthropic-ai/claude-agent-sdk-linux-x64@0.3.332';
export const CLAUDE_VERSION = '2.1.332';

export function claudeBin(agentsDir: string | undefined): string | undefined {
  if (!agentsDir) return undefined;
  const bin = join(agentsDir, 'node_modules', '@anthropic-ai', 'claude-agent-sdk-linux-x64', 'claude');
  return existsSync(bin) ? bin : undefined;
}

/**
 * The environment of a Claude Code run against the loopback model: its own config folder, the
 * Messages API at `baseUrl` with a dummy key (no login), and no telemetry, error reports, update
 * checks or other traffic it can be told to skip.
 */
export function claudeEnv(home: string, baseUrl: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  mkdirSync(home, { recursive: true });
  const { ANTHROPIC_AUTH_TOKEN: _token, ...rest } = env;
  return {
    ...rest,
    CLAUDE_CONFIG_DIR: home,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-loopback',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
}

/**
 * `claude -p --output-format stream-json --verbose`, with the scripted tools allowed up front: as
 * root, Claude Code refuses to skip permission checks, and a tool not allowed would wait for a
 * permission answer no one gives.
 */
export function claudeArgs(prompt: string): string[] {
  return ['-p', prompt, '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash Write Read'];
}
