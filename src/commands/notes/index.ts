import { NOTE_CONTENT_MAX, noteOps } from '../../api/operations/notes.js';
import { defineArea } from '../define-area.js';
import { contentFile } from './content-file.js';

export const area = defineArea(noteOps, {
  extend: {
    create: contentFile(NOTE_CONTENT_MAX),
    update: contentFile(NOTE_CONTENT_MAX),
    commentsAdd: contentFile(),
    commentsUpdate: contentFile(),
  },
  groups: { 'notes comments': 'Comments on notes: list, get, add, update, delete' },
});
