import { fileOps } from '../../api/operations/files.js';
import { defineArea } from '../define-area.js';
import { downloadCommand } from './download.js';

export const area = defineArea(fileOps, { commands: [downloadCommand] });
