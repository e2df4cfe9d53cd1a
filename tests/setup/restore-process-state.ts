import { afterAll, beforeAll } from 'vitest';

// Test files share their worker process (`isolate: false` in vitest.config.ts). What one of them
// changes in the process's variables or working directory and leaves behind (an endpoint set in
// beforeAll, say) must not reach the next file: each file ends with them as it found them.
let environment: NodeJS.ProcessEnv = {};
let directory = '';

beforeAll(() => {
  environment = { ...process.env };
  directory = process.cwd();
});

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
  process.chdir(directory);
});
