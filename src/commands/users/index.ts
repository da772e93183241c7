import { userOps } from '../../api/operations/users.js';
import { defineArea } from '../define-area.js';
import { derivedView } from '../table-view.js';

/**
 * The service says who is an admin per app (`access: [{ app, admin }]`), not with one flag: the
 * table's `admin` column lists the apps a user administers (global = the whole account).
 */
const userTableView = derivedView({
  columns: ['id', 'name', 'email', 'admin', 'active_flag'],
  derived: ['admin'],
  async *present(_ctx, records) {
    for await (const r of records) {
      if (!r || typeof r !== 'object') yield r;
      else {
        const access = (r as { access?: unknown }).access;
        const apps = Array.isArray(access) ? access.filter((a) => a && a.admin === true).map((a) => String(a.app)) : [];
        yield { ...r, admin: apps.join(',') };
      }
    }
  },
});

export const area = defineArea(userOps, { extend: { list: { view: userTableView }, find: { view: userTableView } } });
