import { meetingOps } from '../../api/operations/meetings.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(meetingOps);
