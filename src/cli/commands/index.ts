// The CLI's commands, one module each; `toolnorm --help` lists them in this order.
import type { Command } from './types.js';
import { normalizeCommand } from './normalize.js';
import { execCommand } from './exec.js';
import { compressCommand } from './compress.js';
import { replayCommand } from './replay.js';
import { sessionsCommand } from './sessions.js';
import { viewCommand } from './view.js';

export const COMMANDS: readonly Command[] = [normalizeCommand, execCommand, compressCommand, replayCommand, sessionsCommand, viewCommand];
