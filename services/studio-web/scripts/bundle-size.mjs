// Prints the size of every built file and the total (raw and gzip), so the build log shows what the page weighs.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = 'target/classes/META-INF/resources';

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
let raw = 0;
let gzip = 0;
for (const path of files(root).sort()) {
  const bytes = readFileSync(path);
  const packed = gzipSync(bytes).length;
  raw += bytes.length;
  gzip += packed;
  console.log(`studio-web bundle: ${relative(root, path).padEnd(36)} ${kib(bytes.length).padStart(10)}  gzip ${kib(packed)}`);
}
console.log(`studio-web bundle total: ${kib(raw)} (gzip ${kib(gzip)})`);
