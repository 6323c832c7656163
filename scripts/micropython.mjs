// Run a script in MicroPython's WebAssembly port under Node.js, with modules beside it.
//
//   node scripts/micropython.mjs [--lib DIR]... SCRIPT.py
//
// Every *.py of each --lib DIR is copied to the root of MicroPython's file system
// (as `mpremote cp` lays them out on a Pico), then SCRIPT runs as __main__. Output
// goes to stdout; an uncaught Python exception prints its traceback and exits 1.
// The port is found in $TAVOLA_MICROPYTHON or .venv/micropython (scripts/micropython.sh).
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const PKG = "@micropython/micropython-webassembly-pyscript";
const args = process.argv.slice(2);
const libs = [];
while (args[0] === "--lib") {
  args.shift();
  libs.push(args.shift());
}
if (args.length !== 1) {
  console.error("usage: node scripts/micropython.mjs [--lib DIR]... SCRIPT.py");
  process.exit(2);
}
const root = process.env.TAVOLA_MICROPYTHON || path.join(".venv", "micropython");
const entry = path.resolve(root, "node_modules", PKG, "micropython.mjs");
if (!existsSync(entry)) {
  console.error(`micropython: ${entry} is missing; run scripts/micropython.sh`);
  process.exit(3);
}
const { loadMicroPython } = await import(pathToFileURL(entry).href);
const mp = await loadMicroPython({
  heapsize: 16 * 1024 * 1024,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
for (const dir of libs) {
  for (const name of readdirSync(dir)) {
    if (name.endsWith(".py")) mp.FS.writeFile("/" + name, readFileSync(path.join(dir, name)));
  }
}
try {
  mp.runPython("import sys\nsys.path.insert(0, '/')");
  mp.runPython(readFileSync(args[0], "utf8"));
} catch (e) {
  process.stderr.write(String(e.message || e) + "\n");
  process.exit(1);
}
