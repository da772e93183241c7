// Response shapes of an activity: the v2 record (the vendor's documents) and the classic v1 record used by
// the v1 lists of persons, deals and organizations and by flows.
import type { Activity } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import { fullAddress } from '../../engine/address.js';
import { v1Time, v2Time } from '../../engine/time.js';

export function v2Activity(_state: SandboxState, a: Activity, include: readonly string[] = []): Record<string, unknown> {
  const rec: Record<string, unknown> = {
    id: a.id, subject: a.subject, type: a.type, owner_id: a.owner_id, creator_user_id: a.creator_user_id ?? a.owner_id, is_deleted: a.is_deleted,
    add_time: v2Time(a.add_time), update_time: v2Time(a.update_time), deal_id: a.deal_id, lead_id: a.lead_id, person_id: a.person_id,
    org_id: a.org_id, project_id: a.project_id ?? null, due_date: a.due_date, due_time: a.due_time, duration: a.duration ?? null,
    busy: a.busy ?? false, done: a.done, marked_as_done_time: v2Time(a.marked_as_done_time as string | null | undefined),
    location: fullAddress(a.location), participants: a.participants ?? [], conference_meeting_client: a.conference_meeting_client ?? null,
    conference_meeting_url: a.conference_meeting_url ?? null, conference_meeting_id: a.conference_meeting_id ?? null,
    public_description: a.public_description ?? null, priority: a.priority ?? null, note: a.note ?? null,
  };
  // Attendees only when asked (include_fields=attendees).
  if (include.includes('attendees')) rec.attendees = a.attendees ?? [];
  return rec;
}

export function v1Activity(state: SandboxState, a: Activity): Record<string, unknown> {
  const person = a.person_id ? state.persons.getAny(a.person_id) : undefined;
  const org = a.org_id ? state.organizations.getAny(a.org_id) : undefined;
  const deal = a.deal_id ? state.deals.getAny(a.deal_id) : undefined;
  const loc = (typeof a.location === 'string' ? { value: a.location } : a.location) as { value?: string } | null | undefined;
  return {
    id: a.id, company_id: state.company.id, user_id: a.owner_id, done: a.done, type: a.type, subject: a.subject,
    due_date: a.due_date, due_time: a.due_time ?? '', duration: a.duration ?? '', busy_flag: a.busy ?? false, add_time: v1Time(a.add_time),
    update_time: v1Time(a.update_time), marked_as_done_time: a.done ? v1Time((a.marked_as_done_time as string | null | undefined) ?? a.update_time) : '', deal_id: a.deal_id,
    lead_id: a.lead_id, person_id: a.person_id, org_id: a.org_id, project_id: a.project_id ?? null, active_flag: !a.is_deleted, person_name: person?.name ?? null,
    org_name: org?.name ?? null, deal_title: deal?.title ?? null, owner_name: state.users.getAny(a.owner_id)?.name ?? null,
    assigned_to_user_id: a.owner_id, created_by_user_id: a.creator_user_id ?? a.owner_id, note: a.note ?? null, location: loc?.value ?? null,
    public_description: a.public_description ?? null,
    participants: (a.participants as { person_id: number; primary: boolean }[] | undefined ?? []).map((p) => ({ person_id: p.person_id, primary_flag: p.primary })),
  };
}
