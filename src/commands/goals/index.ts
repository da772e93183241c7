import { goalOps } from '../../api/operations/goals.js';
import { defineArea } from '../define-area.js';
import type { CommandExtension } from '../operation-command.js';
import { find } from './find.js';
import { ALL_ACTIVITY_TYPES, ALL_PIPELINES, OPEN_ENDED, bodyNulls, optionsFor } from './null-flags.js';

const NULLS = [ALL_PIPELINES, ALL_ACTIVITY_TYPES, OPEN_ENDED];
const withNulls: CommandExtension = { options: optionsFor(NULLS), adjust: bodyNulls(NULLS) };

export const area = defineArea(goalOps, { extend: { find, create: withNulls, update: withNulls } });
