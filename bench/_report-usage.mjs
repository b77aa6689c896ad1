// Preloaded (`node --import`) into the measured CLI process by bench/peer.ts: at exit it writes the
// process's own CPU time (user + system, every thread) and peak RSS to fd 3, which the bench reads.
import { writeSync } from 'node:fs';

process.once('exit', () => {
  const u = process.resourceUsage();
  writeSync(3, JSON.stringify({ cpuSeconds: (u.userCPUTime + u.systemCPUTime) / 1e6, maxRssMb: u.maxRSS / 1024 }));
});
