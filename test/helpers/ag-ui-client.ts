// AG-UI's own client on toolnorm's events: an @ag-ui/client agent whose run replays them, so its
// verifier and its reducer (the messages an app renders) see exactly what a client would.
import { AbstractAgent, type BaseEvent, type Message } from '@ag-ui/client';
import { from, type Observable } from 'rxjs';

class Replay extends AbstractAgent {
  constructor(private readonly events: readonly unknown[], threadId: string) {
    super({ threadId });
  }
  run(): Observable<BaseEvent> {
    return from(this.events as BaseEvent[]);
  }
}

/** The messages an AG-UI client holds after these events (one thread's runs), verified on the way. */
export async function clientMessages(events: readonly unknown[], threadId: string): Promise<Message[]> {
  const agent = new Replay(events, threadId);
  await agent.runAgent();
  return JSON.parse(JSON.stringify(agent.messages)) as Message[];
}

type Ev = Record<string, unknown> & { type: string; threadId?: string };

/** The output split by thread: each thread's runs, in order (every event between a RUN_STARTED and its RUN_FINISHED is that run's). */
export function threadsOf(events: readonly unknown[]): Map<string, Ev[]> {
  const out = new Map<string, Ev[]>();
  let current: Ev[] | undefined;
  for (const e of events as Ev[]) {
    if (e.type === 'RUN_STARTED') {
      current = out.get(e.threadId!) ?? [];
      out.set(e.threadId!, current);
    }
    if (!current) throw new Error(`${e.type} outside a run`);
    current.push(e);
    if (e.type === 'RUN_FINISHED') current = undefined;
  }
  return out;
}
