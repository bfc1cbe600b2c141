import { readdir, readFile } from "node:fs/promises";

/** Resident memory of a process and all its descendants, from /proc (Linux only). */
export async function processTreeRssBytes(pid: number): Promise<number> {
  let total = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const status = await readFile(`/proc/${current}/status`, "utf8").catch(() => "");
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    if (match) total += Number(match[1]) * 1024;
    pending.push(...(await childrenOf(current)));
  }
  return total;
}

async function childrenOf(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const children: number[] = [];
  for (const task of tasks) {
    const list = await readFile(`/proc/${pid}/task/${task}/children`, "utf8").catch(() => "");
    for (const id of list.split(/\s+/)) if (id !== "") children.push(Number(id));
  }
  return children;
}
