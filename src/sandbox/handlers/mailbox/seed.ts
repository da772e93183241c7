// Demo mailbox: threads of Ada (user 1) across the four folders with contacts of the
// demo seed, plus one thread of Reggie (user 2) that Ada must never see. `empty` adds nothing.
import { seedUuid } from '../../seed/base.js';
import type { SandboxState, SeedName } from '../../store/state.js';
import { messages, threads, type Flag, type Folder, type MessageParty, type Party } from './common.js';

interface Msg { out: boolean; day: number; hour: number; text: string; draft?: boolean }
interface ThreadSeed {
  user: number;
  person: number;
  subject: string;
  folders: Folder[];
  msgs: Msg[];
  read?: Flag;
  shared?: Flag;
  archived?: Flag;
  deal?: number;
  lead?: string;
  attachments?: Flag;
}

const time = (day: number, hour: number) => new Date(Date.UTC(2025, 0, 6 + day, hour, 15, 0));

const THREADS: ThreadSeed[] = [
  { user: 1, person: 1, subject: 'Quote for the second site', folders: ['inbox'], read: 0, lead: seedUuid('lead:0'), msgs: [
    { out: false, day: 12, hour: 8, text: 'Hi Ada, we are opening the second site in spring. Could you send a quote for 45 seats by March?' },
    { out: true, day: 12, hour: 11, text: 'Hi Alice, happy to. Do you need the same SSO setup as the first site?' },
    { out: false, day: 13, hour: 9, text: 'Yes, same SSO, and EU data residency please.' },
  ] },
  { user: 1, person: 4, subject: 'Fleet tracking pilot: next steps', folders: ['inbox', 'sent'], read: 1, shared: 1, deal: 4, attachments: 1, msgs: [
    { out: true, day: 9, hour: 14, text: 'Dan, attached is the pilot plan for 20 trucks in Q2.' },
    { out: false, day: 10, hour: 7, text: 'Thanks. Our ops director wants a call before signing off.' },
  ] },
  { user: 1, person: 3, subject: 'Support contract invoice', folders: ['inbox'], read: 1, deal: 3, msgs: [
    { out: false, day: 4, hour: 10, text: 'Could you resend the invoice with our new VAT number?' },
  ] },
  { user: 1, person: 2, subject: 'Globex onboarding plan', folders: ['sent'], read: 1, deal: 2, msgs: [
    { out: true, day: 3, hour: 16, text: 'Bob, here is the onboarding plan we discussed, week by week.' },
  ] },
  { user: 1, person: 6, subject: 'Reseller agreement draft', folders: ['drafts'], read: 1, msgs: [
    { out: true, day: 14, hour: 17, text: 'Frank, a first draft of the reseller terms: 20% margin, 12 months.', draft: true },
  ] },
  { user: 1, person: 5, subject: 'POS pilot feedback', folders: ['archive'], read: 1, archived: 1, deal: 6, msgs: [
    { out: false, day: 2, hour: 9, text: 'We went with another vendor this time, thanks for the pilot.' },
    { out: true, day: 2, hour: 12, text: 'Understood, Eve. Let us talk again next year.' },
  ] },
  { user: 2, person: 9, subject: 'Analytics add-on pricing', folders: ['inbox'], read: 0, msgs: [
    { out: false, day: 11, hour: 13, text: 'Hello Reggie, what does the analytics add-on cost per seat?' },
  ] },
];

export function seedMailbox(state: SandboxState, name: SeedName): void {
  if (name !== 'demo') return;
  let partyId = 1;
  for (const s of THREADS) {
    const user = state.users.get(s.user)!;
    const person = state.persons.get(s.person)!;
    const email = person.emails[0]!.value;
    const account = `account-${user.id}`;
    const threadId = threads(state).allocateId() as number;
    const me: MessageParty = { id: user.id * 1000, email_address: user.email, name: user.name, linked_person_id: null, linked_person_name: null, mail_message_party_id: 0 };
    const them: MessageParty = { id: person.id, email_address: email, name: person.name, linked_person_id: person.id, linked_person_name: person.name, mail_message_party_id: 0 };
    const times = s.msgs.map((m) => time(m.day, m.hour));
    const last = times[times.length - 1]!;
    s.msgs.forEach((m, i) => {
      const at = times[i]!.toISOString();
      const id = messages(state).allocateId() as number;
      const party = (p: MessageParty) => ({ ...p, mail_message_party_id: partyId++ });
      messages(state).insert({
        id, from: [party(m.out ? me : them)], to: [party(m.out ? them : me)], cc: [], bcc: [],
        body_url: `https://mail.sandbox.invalid/messages/${id}/body`, body: `<div>${m.text}</div><div>--<br>${m.out ? user.name : person.name}</div>`,
        account_id: account, user_id: user.id, mail_thread_id: threadId, subject: i === 0 ? s.subject : `Re: ${s.subject}`,
        snippet: m.text.slice(0, 225), mail_tracking_status: m.out ? 'opened' : null, mail_link_tracking_enabled_flag: m.out ? 1 : 0,
        read_flag: m.out ? 1 : (s.read ?? 1), draft: m.draft ? JSON.stringify({ subject: s.subject }) : null, draft_flag: m.draft ? 1 : 0,
        synced_flag: 1, deleted_flag: 0, has_body_flag: 1, sent_flag: m.out && !m.draft ? 1 : 0, sent_from_pipedrive_flag: m.out && !m.draft ? 1 : 0,
        smart_bcc_flag: 0, message_time: at, add_time: at, update_time: at, has_attachments_flag: s.attachments ?? 0,
        has_inline_attachments_flag: 0, has_real_attachments_flag: s.attachments ?? 0,
      });
    });
    const threadParty = (p: MessageParty, msgTime: Date, latestSent: boolean): Party => ({
      id: p.id, name: p.name, latest_sent: latestSent, email_address: p.email_address, message_time: msgTime.getTime(),
      linked_person_id: p.linked_person_id, linked_person_name: p.linked_person_name, mail_message_party_id: partyId++,
      linked_organization_id: p.linked_person_id ? person.org_id : null,
    });
    const firstOut = s.msgs[0]!.out;
    const sent = s.msgs.map((m, i) => (m.out && !m.draft ? times[i]! : null)).filter((d): d is Date => d !== null);
    const received = s.msgs.map((m, i) => (!m.out ? times[i]! : null)).filter((d): d is Date => d !== null);
    const lastMsg = s.msgs[s.msgs.length - 1]!;
    const draft = s.msgs.some((m) => m.draft);
    const deal = s.deal ? state.deals.get(s.deal) : undefined;
    threads(state).insert({
      id: threadId, account_id: account, user_id: user.id, subject: s.subject, snippet: lastMsg.text.slice(0, 225),
      snippet_draft: draft ? lastMsg.text.slice(0, 225) : null, snippet_sent: sent.length ? s.msgs.filter((m) => m.out).at(-1)!.text.slice(0, 225) : null,
      read_flag: s.read ?? 1, has_attachments_flag: s.attachments ?? 0, has_inline_attachments_flag: 0, has_real_attachments_flag: s.attachments ?? 0,
      deleted_flag: 0, synced_flag: 1, smart_bcc_flag: 0, mail_link_tracking_enabled_flag: s.msgs.some((m) => m.out) ? 1 : 0,
      has_draft_flag: draft ? 1 : 0, has_sent_flag: sent.length ? 1 : 0, archived_flag: s.archived ?? 0, shared_flag: s.shared ?? 0,
      external_deleted_flag: 0, first_message_to_me_flag: firstOut ? 0 : 1, all_messages_sent_flag: s.msgs.every((m) => m.out) ? 1 : 0,
      mail_tracking_status: s.msgs.some((m) => m.out) ? 'opened' : null,
      parties: { from: [threadParty(firstOut ? me : them, last, !lastMsg.out)], to: [threadParty(firstOut ? them : me, last, lastMsg.out)] },
      drafts_parties: [], folders: s.folders, version: 1, message_count: s.msgs.length,
      last_message_timestamp: last.toISOString(), first_message_timestamp: times[0]!.toISOString(),
      last_message_sent_timestamp: sent.at(-1)?.toISOString() ?? null, last_message_received_timestamp: received.at(-1)?.toISOString() ?? null,
      add_time: times[0]!.toISOString(), update_time: last.toISOString(), deal_id: deal?.id ?? null, deal_status: deal?.status ?? null,
      lead_id: s.lead ?? null,
    });
  }
}
