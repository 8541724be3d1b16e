#!/usr/bin/env node
// Placeholder: the digest lookup CLI lands in its own commit.
process.stderr.write('digest: not built yet\n');
process.exit(2);
