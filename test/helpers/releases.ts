/**
 * The release-history fixture (test/fixtures/releases: a trip booker that reads the user's calendar) and the
 * widening DESIGN.md §9 "Releases" guards against: the agent gains a calendar write as the user, without
 * asking first.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from './site.js';

/** The fixture's folder. */
export const RELEASES_FIXTURE = path.join(REPO_ROOT, 'test/fixtures/releases');
/** The fixture's one agent, project-relative. */
export const AGENT = 'content/agents/trip-booker.md';
/** The calendar resource the agent reads, project-relative. */
export const CALENDAR = 'content/resources/calendar-events.yaml';

/**
 * The agent gains a write as the user without confirmation (the RAM proposal's `identityUsed` END_USER,
 * `confirmationRequired` left at its default, false).
 */
export async function gainCalendarWrite(root: string): Promise<void> {
  const calendar = path.join(root, CALENDAR);
  await writeFile(
    calendar,
    `${await readFile(calendar, 'utf8')}  - id: calendar-events-insert
    description: Creates a new event on a calendar.
    apiOperationSpec:
      operationId: calendar.events.insert
      httpMethod: POST
`,
  );
  const agent = path.join(root, AGENT);
  const text = await readFile(agent, 'utf8');
  await writeFile(
    agent,
    text.replace(
      '    necessity: OPTIONAL\n---',
      `    necessity: OPTIONAL
  - id: create-trip-event
    operation: calendar-events-insert
    identityUsed: END_USER
    accessJustification: To put the trip you booked in your calendar.
    necessity: RECOMMENDED
---`,
    ),
  );
}
