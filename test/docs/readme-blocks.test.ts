// README.md's shell blocks, run as written (test/docs/cases.ts).
import { describeDocBlocks } from './run-cases.js';

describeDocBlocks(['README.md']);
