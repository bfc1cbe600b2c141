// Started by scripts/quickstart.mjs beside the servers it launches. Each server runs in a process
// group of its own (so stopping one stops what npx started under it), which also means nothing
// stops them when the launcher itself dies without running its handlers (kill -9, a crashed
// terminal). This watch does: once the launcher is gone it sends SIGTERM to every server's
// group, and it leaves by itself once they have all ended.
//
// Usage: node scripts/orphan-watch.mjs <launcher pid> <process group id>...

const [launcher, ...groups] = process.argv.slice(2).map(Number);
if (!Number.isInteger(launcher) || groups.length === 0 || !groups.every(Number.isInteger)) {
  console.error("usage: node scripts/orphan-watch.mjs <launcher pid> <process group id>...");
  process.exit(2);
}

/** Whether a process (or, given a negative id, a process group) still exists. */
function exists(id) {
  try {
    process.kill(id, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but is not ours to signal.
    return error.code === "EPERM";
  }
}

const CHECK_MS = 500;
setInterval(() => {
  const running = groups.filter((group) => exists(-group));
  if (running.length === 0) process.exit(0);
  if (exists(launcher)) return;
  for (const group of running) {
    try {
      process.kill(-group, "SIGTERM");
    } catch {
      // Ended meanwhile.
    }
  }
  process.exit(0);
}, CHECK_MS);
