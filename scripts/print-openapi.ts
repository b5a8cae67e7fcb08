import { writeFileSync } from 'node:fs';
import { printedOpenApi } from '../src/rest/openapi/document.js';

writeFileSync('schema/openapi.json', printedOpenApi());
console.log('wrote schema/openapi.json');
