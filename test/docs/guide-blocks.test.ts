// The shell blocks of the guides in docs/*.md, run as written (test/docs/cases.ts).
import { CASES } from './cases.js';
import { describeDocBlocks } from './run-cases.js';

describeDocBlocks(Object.keys(CASES).filter((doc) => doc !== 'README.md'));
