// Roles of the seeded company. The base seed already gives users role_id 1 (Ada) and 2 (Reggie, Sam),
// so both seeds have those two roles; demo adds a deeper hierarchy, custom settings and a hidden pipeline.
import type { SandboxState, SeedName } from '../../store/state.js';
import { DEFAULT_ROLE_ID, rolePipelines, roleSettings, roles } from './store.js';

export function seedRoles(state: SandboxState, name: SeedName): void {
  const add = (id: number, roleName: string, parent: number | null) =>
    roles(state).insert({ id, name: roleName, parent_role_id: parent, active_flag: true }, { silent: true });
  add(DEFAULT_ROLE_ID, 'Default', null);
  add(2, 'Sales', DEFAULT_ROLE_ID);
  roleSettings(state).insert({ id: DEFAULT_ROLE_ID, deal_access_level: 7, org_access_level: 7, person_access_level: 7, product_access_level: 7 }, { silent: true });
  if (name !== 'demo') return;
  add(3, 'EMEA sales', 2);
  add(4, 'Customer success', DEFAULT_ROLE_ID);
  add(5, 'Nordics sales', 3);
  roleSettings(state).insert({ id: 2, deal_default_visibility: 5, lead_default_visibility: 5 }, { silent: true });
  roleSettings(state).insert({ id: 3, deal_default_visibility: 1 }, { silent: true });
  // Customer success does not work the partnerships pipeline.
  const partnerships = state.pipelines.find((p) => p.name === 'Partnerships');
  if (partnerships) rolePipelines(state).insert({ id: 4, hidden: [partnerships.id] }, { silent: true });
  // Sam moves to EMEA sales so the hierarchy has assignments below the top level.
  state.users.update(3, { role_id: 3 }, { silent: true });
}
