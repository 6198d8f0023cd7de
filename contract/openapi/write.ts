import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiText } from './document.ts';

// `npm run openapi` regenerates the committed document; a test fails when it is stale.
const target = fileURLToPath(new URL('./openapi.json', import.meta.url));
writeFileSync(target, openApiText());
console.log(`wrote ${target}`);
