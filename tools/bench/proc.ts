// What Linux says about a process (its memory and open descriptors), read from /proc.
import { readdirSync, readFileSync } from 'node:fs';

/** VmRSS is resident memory now; VmHWM is the peak ("high water mark") since start. */
export type MemoryField = 'VmRSS' | 'VmHWM';

/** The field in megabytes (the kernel reports kB). */
export function memoryMb(pid: number, field: MemoryField): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
  if (!match) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(match[1]) / 1024;
}

/** Open file descriptors: sockets, pipes, files, epoll and timers all show up here. */
export function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** Linux reports CPU time in USER_HZ ticks, 100 per second on every mainstream architecture. */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) the process has used so far, in seconds. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces) start at field 3; utime and
  // stime are fields 14 and 15 (proc(5)).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Busy and total jiffies of all CPUs together, from the first line of /proc/stat. */
function cpuJiffies(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle + iowait
  return { busy: total - idle, total };
}

/** How busy the whole machine is over `ms` (0..1): before a bench, that is other people's work. */
export async function machineBusy(ms: number): Promise<number> {
  const before = cpuJiffies();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = cpuJiffies();
  return (after.busy - before.busy) / Math.max(1, after.total - before.total);
}
