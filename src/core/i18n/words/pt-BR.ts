/**
 * As palavras das páginas em português do Brasil: the page words for Brazilian readers who are not
 * engineers (você, plain words, like a phone's permission screen). Same shape as ./en.ts
 * ({@link PageWords}): a missing word is a TypeScript error. Numbers, dates and plurals through `Intl`.
 *
 * One term per idea on every page: agente (agent), permissão (permission), ação (an action it takes),
 * serviço seu / serviço externo (2P / 3P resource), função (skill), quem publica (the publisher, who also
 * speaks as "nós"), lista de descoberta (the ARD manifest), em seu nome / com a conta do agente (END_USER /
 * AGENT identity), perguntar antes (confirmation). Counts never say "0 ação" (CLDR puts 0 in `one` for
 * pt): a zero says "0 ações", "nenhuma" or a sentence of its own.
 */
import { capitalize, localeTools, type LocaleTools, type PluralForms } from './locale.js';
import type { ChangeWordsInput } from './change-input.js';
import type { PageWords } from './en.js';

const INTL = localeTools('pt-BR');

/**
 * The pt-BR `Intl` helpers, with the first day of a month as an ordinal ("1º de março de 2026"), as
 * Brazilian usage writes it (Manual de Redação da Presidência da República); `Intl` writes "1 de março".
 */
const L: LocaleTools = { ...INTL, date: (iso) => INTL.date(iso).replace(/^1 de /, '1º de ') };

const ACTION = { one: 'ação', other: 'ações' };
const OUTSIDE_SERVICE = { one: 'serviço externo', other: 'serviços externos' };
const YOUR_SERVICE = { one: 'serviço seu', other: 'serviços seus' };

/**
 * A count and its noun: "1 ação", "2 ações", and "0 ações" for zero. CLDR puts 0 in `one` for pt (as it
 * does 1,5), so `Intl` alone would give "0 ação"; Portuguese says "zero ações".
 */
function count(n: number, forms: PluralForms): string {
  return n === 0 ? `${L.number(0)} ${forms.other}` : L.count(n, forms);
}

/** A count of actions, "nenhuma" for zero ("nenhuma recomendada", more natural than "0 recomendadas"). */
function some(n: number, forms: PluralForms): string {
  return n === 0 ? `nenhuma ${forms.one ?? forms.other}` : count(n, forms);
}

/** Lower-cases the first letter: a sign-in kind ("Chave de API") inside a sentence, after a colon. */
function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** A list of quoted names joined with "e": “a”, “b” e “c”. */
function quotedList(items: readonly string[]): string {
  return L.and(items.map((s) => `“${s}”`));
}

function where(label: NonNullable<ChangeWordsInput['label']>): string {
  const name = label.resource ? ` em ${label.resource}` : '';
  return label.owner === 'THIRD_PARTY' ? `${name} (um serviço externo)` : name;
}

/** The action of a change inside a sentence: “Cria um evento” em Agenda, or "uma ação em Agenda". */
function actionName(label: NonNullable<ChangeWordsInput['label']>): string {
  const t = (label.whatItDoes ?? '').replace(/\.$/, '');
  return `${t === '' ? 'uma ação' : `“${t}”`}${where(label)}`;
}

/** The action of a change as a sentence's subject: "A ação “Cria um evento” em Agenda", "Uma ação em Agenda". */
function theAction(label: NonNullable<ChangeWordsInput['label']>): string {
  const name = actionName(label);
  return name.startsWith('“') ? `A ação ${name}` : capitalize(name);
}

function howItActs(label: NonNullable<ChangeWordsInput['label']>): string {
  const who = label.actsAsYou ? 'em seu nome' : 'com a própria conta';
  const ask = label.withoutAsking ? 'sem perguntar a você antes' : 'perguntando a você antes, todas as vezes';
  return `${who}, ${ask}`;
}

const NECESSITY_WORD: Readonly<Record<string, string>> = {
  REQUIRED: 'obrigatória',
  RECOMMENDED: 'recomendada',
  OPTIONAL: 'opcional',
};

/** The reworded field of a resource or operation (src/core/releases/compare.ts `WORDING_FIELDS`). */
const FIELD_WORD: Readonly<Record<string, string>> = {
  displayName: 'o nome',
  description: 'a descrição',
  developerDocumentationUrl: 'o link da documentação',
};

const NECESSITY_MEANING = {
  required: 'sem isso, o agente não consegue fazer o trabalho dele.',
  recommended: 'o agente funciona sem isso, mas recursos importantes vão faltar ou funcionar bem pior.',
  optional: 'serve só para um recurso extra; o agente funciona normalmente sem isso.',
};

/** One change between two versions in words (DESIGN.md §9 "Releases"). */
function changeSentence(change: ChangeWordsInput): string {
  const label = change.label ?? {};
  const action = actionName(label);
  const subject = theAction(label);
  const field = FIELD_WORD[change.field ?? ''] ?? 'o texto';
  if (change.item === 'resource') {
    const name = label.resource ?? change.id;
    if (change.kind === 'added')
      return label.owner === 'THIRD_PARTY'
        ? `Novo serviço externo: ${name} agora recebe dados do agente.`
        : `Novo serviço: agora ele acessa ${name}, um dos seus serviços.`;
    if (change.kind === 'removed') return `Serviço removido: ele não acessa mais ${name}.`;
    if (change.field === 'owner')
      return change.to === 'THIRD_PARTY'
        ? `${name} agora é um serviço externo, não é mais seu: seus dados vão para ele.`
        : `${name} agora é um serviço seu, não mais um serviço externo.`;
    return `Texto alterado: ${field} de ${name}.`;
  }
  if (change.item === 'operation') {
    if (change.kind === 'added') return `Nova ação definida: ${change.id}.`;
    if (change.kind === 'removed') return `Ação que não existe mais: ${change.id}.`;
    return `Texto alterado: ${field} da ação ${change.id}.`;
  }
  const changes = label.changesData ? 'pode alterar seus dados' : 'só lê dados';
  switch (change.kind) {
    case 'added':
      return `Nova permissão: ${action}. Com ela, o agente ${changes} e age ${howItActs(label)}.`;
    case 'removed':
      return `Permissão removida: ele não faz mais ${action}.`;
    case 'reworded':
      return `Texto alterado: o motivo de ${action}.`;
    default:
      break;
  }
  const wider = change.kind === 'widened';
  const list = (v: unknown) => (Array.isArray(v) ? L.and(v.map(String)) : String(v));
  switch (change.field) {
    case 'identityUsed':
      return wider
        ? `${subject} agora é feita em seu nome, com a sua conta (antes: com a conta do agente).`
        : `${subject} agora é feita com a conta do agente, não mais com a sua.`;
    case 'confirmationRequired':
      return wider
        ? `Agora ele faz ${lowerFirst(subject)} sem perguntar a você (antes, perguntava todas as vezes).`
        : `Agora ele pergunta a você antes de fazer ${lowerFirst(subject)}, todas as vezes.`;
    case 'necessity':
      return `${subject} agora é ${NECESSITY_WORD[String(change.to)] ?? String(change.to)} (antes: ${NECESSITY_WORD[String(change.from)] ?? String(change.from)}).`;
    case 'effect':
      return wider
        ? `${subject} agora pode alterar seus dados (antes: só lia dados).`
        : `${subject} agora só lê dados.`;
    case 'operation':
      return `${subject} agora faz algo diferente do que fazia antes.`;
    case 'owner':
      return wider
        ? `${subject} agora envia seus dados para um serviço externo.`
        : `${subject} agora é feita em um serviço seu, não mais em um serviço externo.`;
    case 'scope':
      return wider
        ? `${subject} agora pede uma permissão mais ampla: ${list(change.to)} (antes: ${list(change.from)}).`
        : `${subject} agora pede uma permissão mais restrita: ${list(change.to)}.`;
    default:
      return `${subject} mudou.`;
  }
}

/** As palavras das páginas em português do Brasil. */
export const PT_BR: PageWords = {
  locale: L,

  layout: {
    skipLink: 'Pular para o conteúdo',
    breadcrumb: 'Você está aqui',
    agentsCrumb: 'Agentes',
    publishedBy: 'Publicado por',
    manifestLink: 'Lista de descoberta para computadores (ard.json)',
    writeTo: (email: string) => `Escreva para ${email}`,
    contact: 'Fale conosco',
    privacy: 'Política de privacidade',
    terms: 'Termos de uso',
    languages: 'Idioma',
    languageName: 'Português (Brasil)',
  },
  notFound: {
    title: 'Página não encontrada',
    text: 'Não existe nenhuma página neste endereço. Ela pode ter mudado de lugar ou o link pode estar errado.',
    seeAll: 'Ver todos os agentes',
  },

  index: {
    agentsHeading: 'Agentes',
    mayAccess: 'O que ele pode acessar:',
    detailsLink: (name: string) => `Detalhes do que ${name} pode acessar`,
    alsoListed: 'Também listados aqui',
    alsoListedIntro: 'Outros itens da lista de descoberta deste site.',
    version: (v: string) => `versão ${v}`,
    foreignNote: 'Listado aqui, mas não publicado por nós',
    publishedByDomain: (domain: string) => `Quem publica é ${domain}.`,
    machineDescription: (name: string) => `Descrição de ${name} para computadores`,
    forMachines: 'Para computadores',
    manifestItem: 'Lista de descoberta (ard.json)',
    manifestItemRest: ': todos os agentes e itens acima; o site assina os que são dele.',
    didItem: 'Chaves públicas no formato DID (did.json)',
    jwksItem: 'Chaves públicas no formato JWK Set (jwks.json)',
    entryKinds: {
      'application/a2a-agent-card+json': 'Agente de IA',
      'application/mcp-server-card+json': 'Servidor MCP (ferramentas para agentes de IA)',
      'application/ai-registry+json': 'Catálogo de agentes',
    },
    otherKind: (type: string) => `Item do tipo ${type}`,
  },

  footprint: {
    noAccess: 'Este agente não acessa suas contas nem serviços externos.',
    noAccessShort: 'não acessa suas contas nem serviços externos',
    signInUndeclared:
      'O cartão do agente pede que você faça login com a sua própria conta, mas quem publica não declara o que o agente faz depois com as suas contas e dados, por isso não dá para saber isso aqui.',
    signInUndeclaredShort: 'pede que você faça login com a sua conta, mas não declara o que faz nela',
    yours: (n: number) => `usa ${count(n, YOUR_SERVICE)}`,
    outside: (n: number) => `compartilha dados com ${count(n, OUTSIDE_SERVICE)}`,
    join: (parts: readonly string[]) => parts.join(' · '),
  },

  agent: {
    version: (v: string) => `Versão ${v}`,
    by: 'por',
    updated: 'atualizado em',
    accessHeading: 'O que ele pode acessar',
    permissionsLink: (name: string) => `Veja tudo o que ${name} pode acessar, em nome de quem e por quê`,
    permissionsLinkEmpty: (name: string) => `Página de permissões de ${name}`,
    aboutHeading: 'Sobre este agente',
    documentation: 'Documentação',
    skillsHeading: 'O que ele sabe fazer',
    askExamples: 'Você pode pedir, por exemplo:',
    toUseSkill: (needs: string) => `Para usar esta função, é preciso: ${lowerFirst(needs)}.`,
    connectHeading: 'Como conectar',
    connectIntro: 'Programas compatíveis com o protocolo Agent2Agent (A2A) acessam este agente em:',
    accepts: 'Aceita',
    answersWith: 'Responde com',
    signInHeading: 'Login',
    noSignIn: 'O agente não pede login.',
    noSignInDescribed: 'O cartão do agente não descreve como você faz login.',
    signInAsYou: (services: readonly string[]) =>
      `Ele age em seu nome, com a sua própria conta, em ${L.and(services)}: você vai ter que autorizar o uso da sua conta lá.`,
    signInNothingDeclared:
      'O cartão do agente pede que você faça login com a sua própria conta, mas quem publica não declara o que o agente faz com ela.',
    scopesIntro: 'Permissões que ele pode pedir a você:',
    transport: {
      JSONRPC: 'JSON-RPC 2.0 por HTTPS',
      GRPC: 'gRPC',
      'HTTP+JSON': 'HTTP com JSON',
    },
    protocol: (version: string) => `protocolo A2A versão ${version}`,
    streaming: 'Mostra as respostas aos poucos, enquanto as escreve.',
    pushNotifications: 'Pode avisar o seu aplicativo quando uma tarefa longa terminar.',
    extendedCard: 'Mostra uma descrição mais completa para quem fez login.',
    schemeKind: {
      other: 'Login',
      oauth2: 'Login com OAuth 2.0',
      apiKey: 'Chave de API',
      bearer: 'Token de acesso',
      basic: 'Usuário e senha',
      http: 'Autenticação HTTP',
      openIdConnect: 'Login com OpenID Connect',
      mtls: 'Certificado do cliente',
    },
    authorizationCode: (url: string, pkce: boolean) =>
      `Você faz login em ${url} e autoriza o que ele pode fazer${pkce ? ' (com proteção PKCE)' : ''}.`,
    deviceCode: (url: string) => `Você autoriza em outro aparelho, em ${url}.`,
    implicit: (url: string) => `Você faz login em ${url} (método antigo, chamado “implicit”).`,
    password: (url: string) => `Seu usuário e sua senha são trocados por um token em ${url}.`,
    clientCredentials: (url: string) =>
      `Outros programas podem fazer login com as próprias credenciais em ${url}.`,
    metadataUrl: (url: string) => `Detalhes do servidor de login: ${url}.`,
    // With their preposition, contracted where Portuguese contracts it ("no endereço", never "em o").
    apiKeyPlace: {
      header: 'em um cabeçalho da requisição',
      query: 'no endereço (query string)',
      cookie: 'em um cookie',
    },
    apiKey: (name: string, place: string) => `Uma chave chamada “${name}”, enviada ${place}.`,
    bearer: (format: string | undefined) =>
      `Um token${format ? ` (${format})` : ''} enviado em cada requisição.`,
    basic: 'Usuário e senha enviados em cada requisição (autenticação HTTP Basic).',
    http: (scheme: string) => `Autenticação HTTP do tipo “${scheme}”.`,
    openIdConnect: (url: string) => `Você faz login por um provedor OpenID Connect descrito em ${url}.`,
    mtls: 'O programa que se conecta apresenta o próprio certificado TLS (TLS mútuo).',
    requirement: (kind: string, scopes: readonly string[]) =>
      scopes.length === 0 ? kind : `${kind}, com permissão para: ${scopes.join('; ')}`,
    requirementAnd: (parts: readonly string[]) =>
      parts.map((p, i) => (i === 0 ? p : lowerFirst(p))).join(', e também '),
    needsOr: (alternatives: readonly string[]) =>
      alternatives.map((a, i) => (i === 0 ? a : lowerFirst(a))).join('; ou '),
    requirementOne: (r: string) => `Para usar o agente, é preciso: ${lowerFirst(r)}.`,
    requirementMany: (rs: readonly string[]) =>
      `Para usar o agente, é preciso uma destas opções: ${rs.map(lowerFirst).join('; ou ')}.`,
  },

  machine: {
    heading: 'Para computadores',
    card: 'Cartão do agente (JSON)',
    manifest: 'Lista de descoberta deste site (ard.json)',
    permissionPage: 'O que ele pode acessar (página de permissões)',
    aboutAgent: 'Sobre este agente',
    identifier: 'Identificador',
    digest: 'Resumo (hash) do cartão do agente',
    kid: 'Identificador da chave de assinatura',
    pinnedBefore:
      'A lista de descoberta guarda este resumo do cartão e é assinada com esta chave; a chave está publicada em',
    and: 'e',
  },

  permissions: {
    title: (name: string) => `O que ${name} pode acessar`,
    description: (name: string) =>
      `As contas, serviços e dados que ${name} pode acessar, em nome de quem, por quê e se ele pergunta antes.`,
    declaration:
      'Estas informações foram declaradas por quem publica o agente. Não são resultado de uma auditoria independente.',
    summaryHeading: 'Resumo',
    legendIntro: 'O que estes termos significam:',
    higherRiskLabel: 'Risco maior',
    higherRiskReason: 'Age em seu nome, pode alterar seus dados e não pergunta antes.',
    manageAccess: (name: string) => `Gerenciar ou cancelar o acesso a ${name}`,
    documentationOf: (name: string) => `Documentação de ${name}`,
    whatItDoesHeading: 'O que ele faz neste serviço',
    skillsHeading: 'Por função',
    skillsIntro: 'O que cada função do agente usa.',
    contactHeading: 'Dúvidas sobre este agente',
    publishedBy: (name: string) => `${name} é publicado por`,
    machineIntro: 'As mesmas informações, na versão assinada por quem publica o agente:',
    facts: {
      why: 'Motivo',
      asWhom: 'Em nome de quem',
      asksFirst: 'Pergunta antes',
      changesData: 'Altera dados',
      necessity: 'Quanto ele precisa disso',
      usedBy: 'Usado por',
      technical: 'Detalhes técnicos',
    },
    usedBy: (skills: readonly string[]) =>
      `${skills.length === 1 ? 'A função' : 'As funções'} ${quotedList(skills)}.`,
    sameActionAs: (whatItDoes: string, asWhom: 'you' | 'itself') =>
      `${whatItDoes} (${asWhom === 'you' ? 'em seu nome' : 'com a conta do agente'})`,
    asYou: 'Em seu nome: usa a sua conta, com as suas permissões.',
    asItselfOnYours: 'Com a conta do agente: o serviço é seu, mas o agente não usa a sua conta nele.',
    asItself: 'Com a conta do agente: não usa a sua conta.',
    asksFirstYes: 'Sim: ele pergunta a você todas as vezes antes de fazer isso.',
    asksFirstNo: 'Não: ele faz isso sem perguntar a você antes.',
    mayChange: 'Pode alterar dados.',
    mayChangeUnsaid: 'Pode alterar dados: quem publica não informou que ele só lê dados.',
    mayChangeServiceSays:
      'Pode alterar dados: quem publica diz que ele só lê dados, mas a descrição do próprio serviço diz que ele pode alterar dados.',
    onlyReads: 'Só lê dados.',
    mayDelete: 'Pode apagar ou sobrescrever dados, e talvez isso não possa ser desfeito.',
    reachesOutside:
      'Também pode acessar outros serviços ou sites além deste: a descrição da própria ferramenta diz isso.',
    publisherGroupHeading: (organization: string) => `Serviços de ${organization}`,
    publisherGroupIntro: (organization: string) =>
      `Mantidos por ${organization}, que publica este agente, e não por outras empresas. O agente envia a eles alguns dos seus dados para conseguir uma resposta.`,
    necessityLabel: { required: 'Obrigatório', recommended: 'Recomendado', optional: 'Opcional' },
    necessityMeaning: NECESSITY_MEANING,
    necessityExplanation: {
      required: `Obrigatório: ${NECESSITY_MEANING.required}`,
      recommended: `Recomendado: ${NECESSITY_MEANING.recommended}`,
      optional: `Opcional: ${NECESSITY_MEANING.optional}`,
    },
    groupHeading: { yours: 'Suas contas e seus dados', outside: 'Serviços externos' },
    groupIntro: {
      yours: 'Serviços em que você tem conta. O agente entra neles para trabalhar com os seus dados.',
      yoursEmpty: 'Ele não usa nenhuma conta sua nem os seus dados.',
      yoursEmptyAsYouOutside:
        'Ele não usa nenhum serviço seu. Mas, quando um serviço externo abaixo diz “Em seu nome”, ele usa a sua conta nesse serviço.',
      outside:
        'Serviços de outras empresas. O agente envia a eles alguns dos seus dados para conseguir uma resposta.',
      outsideEmpty: 'Ele não envia dados para nenhum serviço externo.',
    },
    kind: {
      MCP: 'Uma ferramenta feita para agentes de IA (um servidor MCP).',
      A2A: 'Outro agente de IA, com quem este agente conversa (por A2A).',
      REST: 'Um serviço na internet, que o agente acessa por uma interface para programas (API).',
    },
    // The summary is a list under "Resumo": its sentences start with the verb, as Portuguese drops "ele".
    summaryYours: (total: number, asYou: number, asItself: number, outsideAsYou: number) => {
      const accounts = `${L.form(outsideAsYou, { one: 'a sua conta', other: 'as suas contas' })} em ${count(outsideAsYou, OUTSIDE_SERVICE)}, em seu nome`;
      if (total === 0)
        return outsideAsYou === 0
          ? 'Não usa nenhuma conta nem serviço seu.'
          : `Não usa nenhum serviço seu, mas usa ${accounts}.`;
      const services = `Usa ${count(total, YOUR_SERVICE)}`;
      const own =
        asItself === 0
          ? `${services}, em seu nome.`
          : asYou === 0
            ? `${services}, com a conta do agente, não com a sua.`
            : `${services}: ${L.number(asYou)} em seu nome, ${L.number(asItself)} com a conta do agente.`;
      return outsideAsYou === 0 ? own : `${own} Também usa ${accounts}.`;
    },
    summarySignInUndeclared:
      'O cartão do agente pede que você faça login com a sua própria conta, mas nenhuma ação abaixo é declarada como feita com ela: o que ele faz com a sua conta não está declarado.',
    summaryOutside: (n: number) =>
      n === 0
        ? 'Não compartilha dados com nenhum serviço externo.'
        : `Compartilha dados com ${count(n, OUTSIDE_SERVICE)}.`,
    summaryAsksFirst: (asksFirst: number, accesses: number) => {
      if (accesses === 0) return 'Não faz nada nas suas contas nem em serviços externos.';
      if (accesses === 1)
        return asksFirst === 1
          ? 'Pergunta a você antes de fazer a única ação dele.'
          : 'Não pergunta a você antes de fazer a única ação dele.';
      if (asksFirst === 0) return `Não pergunta a você antes de nenhuma das ${count(accesses, ACTION)} dele.`;
      if (asksFirst === accesses)
        return `Pergunta a você antes de cada uma das ${count(accesses, ACTION)} dele.`;
      return `Pergunta a você antes de ${L.number(asksFirst)} das ${count(accesses, ACTION)} dele.`;
    },
    summaryNecessity: (required: number, recommended: number, optional: number) => {
      if (required + recommended + optional === 1) {
        const only = required === 1 ? 'obrigatória' : recommended === 1 ? 'recomendada' : 'opcional';
        return `Quanto ele precisa da única ação dele: ${only}.`;
      }
      return `Quanto ele precisa dessas ações: ${[
        some(required, { one: 'obrigatória', other: 'obrigatórias' }),
        some(recommended, { one: 'recomendada', other: 'recomendadas' }),
        some(optional, { one: 'opcional', other: 'opcionais' }),
      ].join(', ')}.`;
    },
    summaryHigherRisk: (n: number) => {
      if (n === 0) return 'Nenhuma ação está marcada como “Risco maior”.';
      const how = 'o agente age em seu nome, pode alterar seus dados e não pergunta antes';
      if (n === 1) return `Uma ação está marcada como “Risco maior”: nela, ${how}.`;
      return `${capitalize(count(n, ACTION))} estão marcadas como “Risco maior”: nelas, ${how}.`;
    },
  },

  label: {
    heading: 'Visão rápida',
    yours: 'seu serviço',
    outside: 'serviço externo',
    publisher: (organization: string) => `mantido por ${organization}`,
    asYou: 'em seu nome',
    asItself: 'com a conta do agente',
    asBoth: 'em seu nome e com a conta do agente',
    onlyReads: 'só lê',
    changesData: 'altera dados',
    mayDelete: 'pode apagar ou sobrescrever: talvez não dê para desfazer',
    asksFirst: 'pergunta a você antes',
    withoutAsking: 'sem perguntar a você antes',
    optional: 'opcional',
    higherRisk: 'risco maior',
    reachesOutside: 'pode acessar outros serviços',
    action: (text: string, notes: readonly string[]) =>
      notes.length === 0 ? text : `${text}: ${notes.join(', ')}`,
    sendsTo: (names: readonly string[]) => `Alguns dos seus dados vão para ${L.and(names)}.`,
    details: 'Todos os detalhes, com os motivos, estão abaixo.',
  },

  grants: {
    heading: 'O serviço vai pedir a sua autorização para:',
    atLeastHeading: 'O serviço vai pedir a sua autorização para, no mínimo:',
    askedHeading: 'O que o agente pede para você autorizar:',
    neededHeading: 'As permissões mais restritas que o serviço lista para as ações que ele declara:',
    nothingToAllow: 'Nada: o agente não usa a sua conta neste serviço.',
    scopesNotNamed:
      'Este serviço não diz quais permissões pede, por isso elas não são conhecidas aqui. O agente usa a sua conta nele, como mostrado abaixo.',
    unknown:
      'Quem publica o agente não informou os detalhes técnicos deste serviço, por isso não dá para saber aqui exatamente o que ele vai pedir.',
    scopeWithoutDescription: 'O serviço não explica esta permissão.',
    // "outras 11 ações", "mais uma ação": Portuguese puts "outras" before the number, never "11 outras".
    alsoAllows: (n: number) => {
      if (n === 0) return 'Esta permissão não libera nada além do que o agente diz que faz.';
      if (n === 1) return 'Esta permissão também libera mais uma ação neste serviço.';
      return `Esta permissão também libera outras ${count(n, ACTION)} neste serviço.`;
    },
    alsoAllowsSummary: 'Ver o que mais ela libera',
    broaderLabel: 'Pede mais do que precisa',
    broader: (asked: string, needed: readonly string[]) => {
      const need =
        needed.length === 0
          ? 'as ações que ele declara não precisam de nenhuma permissão sua aqui'
          : `a mais restrita que o serviço lista para as ações que ele declara é ${quotedList(needed)}, e quem publica não diz por que ele precisa de mais`;
      return `O agente pede “${asked}”, que libera mais: ${need}.`;
    },
    narrowest: 'A permissão mais restrita que o serviço lista para estas ações.',
    neededBecause: 'Quem publica diz que o agente precisa desta permissão:',
    narrowerListed: (narrower: string) =>
      `O serviço lista uma permissão mais restrita para estas ações, “${narrower}”, que, segundo quem publica, não basta.`,
    leavesOut: (clause: string) => `A própria descrição do serviço a limita: “${clause}”.`,
    scopeFor: (actions: readonly string[]) => `Para: ${quotedList(actions)}.`,
  },

  changes: {
    heading: (version: string) => `O que mudou na versão ${version}`,
    intro: (previousVersion: string, previousDate: string) =>
      `Mudanças em relação à versão ${previousVersion}, de ${L.date(previousDate)}:`,
    historyHeading: 'Mudanças anteriores',
    historyVersion: (version: string, date: string, previousVersion: string) =>
      `Versão ${version} (${L.date(date)}), em relação à versão ${previousVersion}:`,
    notice: (version: string, date: string) => `Novas permissões na versão ${version} (${L.date(date)}).`,
    noticeLink: 'Ver o que mudou',
    sentence: changeSentence,
  },
};
