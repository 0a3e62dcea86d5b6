import { readFileSync } from 'node:fs';
import { checkAndGrade, renderReports } from './app.js';

const data = new URL('../sets/', import.meta.url);
const attempt = JSON.parse(
  readFileSync(new URL('../responses/attempt.json', import.meta.url), 'utf8'),
) as Record<string, Record<string, unknown>>;
const files = ['closures.json', 'networking.json', 'broken.json'];
const reports = files.map((file) =>
  checkAndGrade(file, readFileSync(new URL(file, data), 'utf8'), attempt[file]),
);
process.stdout.write(renderReports(reports));
