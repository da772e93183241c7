import { join } from 'node:path';
import { configDir } from '../config/store.js';

/** Where a config dir keeps what runs leave: the index of runs, journals set aside, known accounts. */
export const runsDir = (env: NodeJS.ProcessEnv) => join(configDir(env), 'runs');
