// Makes the compiled CLI entry points executable (tsc does not keep modes), so `npx ralph` and `npm link` work.
const fs = require('node:fs');
const path = require('node:path');
const pkg = require('../package.json');
for (const rel of Object.values(pkg.bin)) {
  const file = path.join(__dirname, '..', rel);
  if (fs.existsSync(file)) fs.chmodSync(file, 0o755);
}
