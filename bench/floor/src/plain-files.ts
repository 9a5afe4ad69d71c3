/**
 * The floor's JSON and text files, written with plain file writes after Astro's build, as ardsite writes
 * its own beside Astro (not through Astro's route pipeline): per agent the card and the permission file,
 * the ARD manifest, its ai-catalog copy, did.json and jwks.json under `.well-known/`, llms.txt, sitemap.xml
 * and robots.txt, from the in-memory agents the pages render (./data.ts); each written synchronously, one
 * after the other: no `Response`, stream or promise per file (BENCHMARKS.md, "Build CPU: the floor writes
 * ardsite's bytes", measures this against Astro endpoints).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { floorAgents } from './data';
import { aiCatalogText, ardText, didText, jwksText, llmsText, robotsText, sitemapText } from './site-files';

/**
 * Writes the floor's JSON and text files into `outDir` (the folder Astro built the pages into), each agent's
 * two files made when written and not kept. Returns the number of files written.
 */
export function writeFloorFiles(outDir: string): number {
  const agents = floorAgents();
  const models = agents.map((a) => a.model);
  let written = 0;
  const write = (file: string, text: string) => {
    writeFileSync(path.join(outDir, file), text);
    written++;
  };
  for (const agent of agents) {
    // The agent's folder holds its pages already; made here too, so the files do not depend on them.
    mkdirSync(path.join(outDir, 'agents', agent.slug), { recursive: true });
    write(`agents/${agent.slug}/agent-card.json`, agent.card);
    write(`agents/${agent.slug}/permissions.json`, agent.permissionsFile);
  }
  mkdirSync(path.join(outDir, '.well-known'), { recursive: true });
  write('.well-known/ard.json', ardText(models));
  write('.well-known/ai-catalog.json', aiCatalogText(models));
  write('.well-known/did.json', didText());
  write('.well-known/jwks.json', jwksText());
  write('llms.txt', llmsText(models));
  write('sitemap.xml', sitemapText(models));
  write('robots.txt', robotsText());
  return written;
}
