import { legacyTeamOps } from '../../api/operations/legacy-teams.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(legacyTeamOps, {
  groups: { 'legacy-teams users': 'Members of a team' },
});
