import { leadOps } from '../../api/operations/leads.js';
import { defineArea } from '../define-area.js';
import { archive, unarchive } from './archive.js';
import { channels } from './channels.js';
import { convertCommand } from './convert.js';

export const area = defineArea(leadOps, {
  commands: [convertCommand, archive, unarchive, channels],
});
