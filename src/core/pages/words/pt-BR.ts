/**
 * As palavras das páginas em português do Brasil: the page words for Brazilian readers who are not
 * engineers (você, plain words, like a phone's permission screen). Same shape as ./en.ts
 * ({@link PageWords}): a missing word is a TypeScript error. Numbers, dates and plurals through `Intl`.
 */
import { capitalize, localeTools, type PluralForms } from './locale.js';
import type { ChangeWordsInput } from './change-input.js';
import type { PageWords } from './en.js';

const L = localeTools('pt-BR');

const ACTION = { one: 'ação', other: 'ações' };
const OUTSIDE_SERVICE = { one: 'serviço externo', other: 'serviços externos' };
const YOUR_SERVICE = { one: 'serviço seu', other: 'serviços seus' };

/** A count of actions, "nenhuma" for zero (more natural than "0 recomendada", CLDR's `one` for 0 in pt). */
function some(count: number, forms: PluralForms): string {
  return count === 0 ? `nenhuma ${forms.one ?? forms.other}` : L.count(count, forms);
}

function quoted(text: string | undefined): string {
  const t = (text ?? '').replace(/\.$/, '');
  return t === '' ? 'uma ação' : `“${t}”`;
}

function howItActs(label: NonNullable<ChangeWordsInput['label']>): string {
  const who = label.actsAsYou ? 'em seu nome' : 'com a própria conta';
  const ask = label.withoutAsking ? 'sem perguntar antes' : 'perguntando a você antes, todas as vezes';
  return `${who}, ${ask}`;
}

function where(label: NonNullable<ChangeWordsInput['label']>): string {
  const name = label.resource ? ` em ${label.resource}` : '';
  return label.owner === 'THIRD_PARTY' ? `${name} (um serviço externo)` : name;
}

const NECESSITY_WORD: Readonly<Record<string, string>> = {
  REQUIRED: 'obrigatória',
  RECOMMENDED: 'recomendada',
  OPTIONAL: 'opcional',
};

const NECESSITY_MEANING = {
  required: 'sem isso, o agente não consegue fazer o trabalho dele.',
  recommended: 'o agente funciona sem isso, mas recursos importantes vão faltar ou funcionar bem pior.',
  optional: 'serve só para um recurso extra; o agente funciona normalmente sem isso.',
};

function changeSentence(change: ChangeWordsInput): string {
  const label = change.label ?? {};
  const action = `${quoted(label.whatItDoes)}${where(label)}`;
  if (change.item === 'resource') {
    const name = label.resource ?? change.id;
    if (change.kind === 'added')
      return label.owner === 'THIRD_PARTY'
        ? `Novo serviço externo: ${name} agora recebe dados do agente.`
        : `Novo: agora ele acessa ${name}, um dos seus serviços.`;
    if (change.kind === 'removed') return `Removido: ele não acessa mais ${name}.`;
    if (change.field === 'owner')
      return change.to === 'THIRD_PARTY'
        ? `${name} agora é um serviço externo, não é mais seu: seus dados vão para ele.`
        : `${name} agora é um serviço seu, não mais um serviço externo.`;
    return `Texto alterado: a descrição de ${name}.`;
  }
  if (change.item === 'operation') {
    if (change.kind === 'added') return `Nova ação definida: ${change.id}.`;
    if (change.kind === 'removed') return `Ação que não existe mais: ${change.id}.`;
    return `Texto alterado: a descrição da ação ${change.id}.`;
  }
  const changes = label.changesData ? 'pode alterar seus dados' : 'só lê dados';
  switch (change.kind) {
    case 'added':
      return `Nova permissão: ${action}. Ela ${changes} e age ${howItActs(label)}.`;
    case 'removed':
      return `Removido: ele não faz mais ${action}.`;
    case 'reworded':
      return `Texto alterado: o motivo de ${action}.`;
    default:
      break;
  }
  const wider = change.kind === 'widened';
  switch (change.field) {
    case 'identityUsed':
      return wider
        ? `A ação ${action} agora age em seu nome, com a sua conta (antes: com a própria conta).`
        : `A ação ${action} agora usa a própria conta do agente, não mais a sua.`;
    case 'confirmationRequired':
      return wider
        ? `A ação ${action} agora é feita sem perguntar a você antes (antes: perguntava todas as vezes).`
        : `A ação ${action} agora pergunta a você antes, todas as vezes.`;
    case 'necessity':
      return `A ação ${action} agora é ${NECESSITY_WORD[String(change.to)] ?? String(change.to)} (antes: ${NECESSITY_WORD[String(change.from)] ?? String(change.from)}).`;
    case 'effect':
      return wider
        ? `A ação ${action} agora pode alterar seus dados (antes: só lia dados).`
        : `A ação ${action} agora só lê dados.`;
    case 'operation':
      return `A ação ${action} agora faz outra coisa do que fazia antes.`;
    case 'owner':
      return wider
        ? `A ação ${action} agora envia seus dados para um serviço externo.`
        : `A ação ${action} agora fica em um serviço seu.`;
    case 'scope': {
      const list = (v: unknown) => (Array.isArray(v) ? v.join(', ') : String(v));
      return wider
        ? `A ação ${action} agora pede uma permissão mais ampla: ${list(change.to)} (antes: ${list(change.from)}).`
        : `A ação ${action} agora pede uma permissão mais restrita: ${list(change.to)}.`;
    }
    default:
      return `A ação ${action} mudou.`;
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
    manifestLink: 'Lista para computadores (ard.json)',
    writeTo: (email: string) => `Escreva para ${email}`,
    contact: 'Fale com quem publica',
    privacy: 'Política de privacidade',
    terms: 'Termos de uso',
  },
  notFound: {
    title: 'Página não encontrada',
    text: 'Não existe nenhuma página neste endereço. Ela pode ter mudado de lugar, ou o link pode estar errado.',
    seeAll: 'Ver todos os agentes',
  },

  index: {
    agentsHeading: 'Agentes',
    mayAccess: 'O que ele pode acessar:',
    detailsLink: (name: string) => `Detalhes do que ${name} pode acessar`,
    alsoListed: 'Também nesta lista',
    alsoListedIntro: 'Outros recursos que este site lista para computadores.',
    version: (v: string) => `versão ${v}`,
    foreignNote: 'Está na lista, mas não foi publicado por nós',
    publishedByDomain: (domain: string) => `Quem publica é ${domain}.`,
    machineDescription: (name: string) => `Descrição de ${name} para computadores`,
    forMachines: 'Para computadores',
    manifestItem: 'Lista de descoberta (ard.json)',
    manifestItemRest: ': todos os agentes e itens acima, com a assinatura do site.',
    didItem: 'Chaves públicas como documento DID (did.json)',
    jwksItem: 'Chaves públicas como conjunto de chaves JSON (jwks.json)',
    entryKinds: {
      'application/a2a-agent-card+json': 'Agente de IA',
      'application/mcp-server-card+json': 'Servidor MCP (ferramentas para agentes de IA)',
      'application/ai-registry+json': 'Catálogo de agentes',
    },
    otherKind: (type: string) => `Recurso do tipo ${type}`,
  },

  footprint: {
    noAccess: 'Este agente não acessa nenhuma conta sua nem serviços externos.',
    noAccessShort: 'Não acessa nenhuma conta sua nem serviços externos',
    yours: (n: number) => `usa ${L.count(n, YOUR_SERVICE)}`,
    outside: (n: number) => `compartilha dados com ${L.count(n, OUTSIDE_SERVICE)}`,
    join: (parts: readonly string[]) => capitalize(parts.join(' · ')),
  },

  agent: {
    version: (v: string) => `Versão ${v}`,
    by: 'de',
    updated: 'atualizado em',
    accessHeading: 'O que ele pode acessar',
    permissionsLink: (name: string) => `Veja tudo o que ${name} pode acessar, em nome de quem e por quê`,
    permissionsLinkEmpty: (name: string) => `A página de permissões de ${name}`,
    aboutHeading: 'Sobre este agente',
    documentation: 'Documentação',
    skillsHeading: 'O que ele sabe fazer',
    askExamples: 'Você pode pedir, por exemplo:',
    toUseSkill: (needs: string) => `Para usar esta função: ${needs}.`,
    connectHeading: 'Como conectar',
    connectIntro: 'Programas que falam o protocolo Agent2Agent (A2A) encontram este agente em:',
    accepts: 'Ele recebe',
    answersWith: 'Ele responde com',
    signInHeading: 'Login',
    noSignIn: 'O agente não pede login.',
    scopesIntro: 'Permissões que ele pode pedir a você:',
    transport: {
      JSONRPC: 'JSON-RPC 2.0 por HTTPS',
      GRPC: 'gRPC',
      'HTTP+JSON': 'HTTP com JSON',
    },
    protocol: (version: string) => `protocolo A2A versão ${version}`,
    streaming: 'Mostra as respostas enquanto escreve.',
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
      `Você entra em ${url} e aprova o que ele pode fazer${pkce ? ' (com proteção PKCE)' : ''}.`,
    deviceCode: (url: string) => `Você aprova em outro aparelho, em ${url}.`,
    implicit: (url: string) => `Você entra em ${url} (forma antiga, “implicit”).`,
    password: (url: string) => `Seu usuário e sua senha são trocados por um token em ${url}.`,
    clientCredentials: (url: string) =>
      `Outros programas podem entrar com as próprias credenciais em ${url}.`,
    metadataUrl: (url: string) => `Detalhes do servidor de login: ${url}.`,
    apiKeyPlace: {
      header: 'um cabeçalho da requisição',
      query: 'o endereço (query string)',
      cookie: 'um cookie',
    },
    apiKey: (name: string, place: string) => `Uma chave chamada “${name}”, enviada em ${place}.`,
    bearer: (format: string | undefined) =>
      `Um token${format ? ` (${format})` : ''} enviado em cada requisição.`,
    basic: 'Usuário e senha enviados em cada requisição (autenticação HTTP Basic).',
    http: (scheme: string) => `Autenticação HTTP do tipo “${scheme}”.`,
    openIdConnect: (url: string) => `Você entra por um provedor OpenID Connect descrito em ${url}.`,
    mtls: 'Quem chama apresenta o próprio certificado TLS (TLS mútuo).',
    requirement: (kind: string, scopes: readonly string[]) =>
      scopes.length === 0 ? kind : `${kind}, com permissão para: ${scopes.join('; ')}`,
    requirementAnd: (parts: readonly string[]) => parts.join(', e '),
    needsOr: (alternatives: readonly string[]) => alternatives.join(' Ou: '),
    requirementOne: (r: string) => `Para usar o agente, é preciso: ${r}.`,
    requirementMany: (rs: readonly string[]) =>
      `Para usar o agente, é preciso uma destas opções: ${rs.join('; ou ')}.`,
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
      'A lista fixa o cartão por este resumo e é assinada com esta chave; a chave está publicada em',
    and: 'e',
  },

  permissions: {
    title: (name: string) => `O que ${name} pode acessar`,
    description: (name: string) =>
      `As contas, serviços e dados que ${name} pode acessar, em nome de quem, por quê e se ele pergunta antes.`,
    declaration: 'Isto é o que quem publica o agente declara, não uma auditoria independente.',
    summaryHeading: 'Resumo',
    legendIntro: 'O que as palavras querem dizer:',
    higherRiskLabel: 'Mais arriscado',
    higherRiskReason: 'Age em seu nome, pode alterar seus dados e não pergunta antes.',
    manageAccess: (name: string) => `Gerenciar ou cancelar o acesso a ${name}`,
    documentationOf: (name: string) => `Documentação de ${name}`,
    whatItDoesHeading: 'O que ele faz lá',
    skillsHeading: 'Por função',
    skillsIntro: 'O que cada função do agente usa.',
    contactHeading: 'Dúvidas sobre este agente',
    publishedBy: (name: string) => `${name} é publicado por`,
    machineIntro: 'As mesmas informações, do jeito que quem publica assinou:',
    facts: {
      why: 'Por quê',
      asWhom: 'Em nome de quem',
      asksFirst: 'Pergunta antes',
      changesData: 'Altera dados',
      necessity: 'Quanto ele precisa disso',
      usedBy: 'Usado por',
      technical: 'Detalhes técnicos',
    },
    usedBy: (skills: readonly string[]) =>
      `${skills.length === 1 ? 'A função' : 'As funções'} ${L.and(skills.map((s) => `“${s}”`))}.`,
    sameActionAs: (whatItDoes: string, asWhom: 'you' | 'itself') =>
      `${whatItDoes} (${asWhom === 'you' ? 'em seu nome' : 'com a própria conta'})`,
    asYou: 'Em seu nome: usa a sua conta, com as suas permissões.',
    asItselfOnYours:
      'Com a própria conta: este serviço é seu, mas o agente entra nele com a conta dele, não com a sua.',
    asItself: 'Com a própria conta: não usa a sua conta.',
    asksFirstYes: 'Sim: ele pergunta a você todas as vezes antes de fazer isso.',
    asksFirstNo: 'Não: ele faz isso sem perguntar a você antes.',
    mayChange: 'Pode alterar dados.',
    mayChangeUnsaid: 'Pode alterar dados: quem publica não disse que ele só lê.',
    onlyReads: 'Só lê dados.',
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
      outside:
        'Serviços de outras empresas. O agente envia a eles alguns dos seus dados para conseguir uma resposta.',
      outsideEmpty: 'Ele não envia dados para nenhum serviço externo.',
    },
    kind: {
      MCP: 'Uma ferramenta feita para agentes de IA (um servidor MCP).',
      A2A: 'Outro agente de IA, com quem este agente conversa (por A2A).',
      REST: 'Um serviço na internet (acessado pela API dele).',
    },
    summaryYours: (total: number, asYou: number, asItself: number) => {
      if (total === 0) return 'Ele não mexe em nenhuma conta ou serviço seu.';
      const services = `Ele usa ${L.count(total, YOUR_SERVICE)}`;
      if (asItself === 0) return `${services}, em seu nome.`;
      if (asYou === 0) return `${services}, com a própria conta, não com a sua.`;
      return `${services}: ${L.number(asYou)} em seu nome, ${L.number(asItself)} com a própria conta.`;
    },
    summaryOutside: (n: number) =>
      n === 0
        ? 'Ele não compartilha dados com nenhum serviço externo.'
        : `Ele compartilha dados com ${L.count(n, OUTSIDE_SERVICE)}.`,
    summaryAsksFirst: (asksFirst: number, accesses: number) => {
      if (accesses === 0) return 'Ele não faz nada nas suas contas nem em serviços externos.';
      if (accesses === 1)
        return asksFirst === 1
          ? 'Ele pergunta a você antes de fazer a única ação dele.'
          : 'Ele não pergunta a você antes de fazer a única ação dele.';
      if (asksFirst === 0)
        return `Ele não pergunta a você antes de nenhuma das ${L.count(accesses, ACTION)} dele.`;
      if (asksFirst === accesses)
        return `Ele pergunta a você antes de cada uma das ${L.count(accesses, ACTION)} dele.`;
      return `Ele pergunta a você antes de ${L.number(asksFirst)} das ${L.count(accesses, ACTION)} dele.`;
    },
    summaryNecessity: (required: number, recommended: number, optional: number) =>
      `Quanto ele precisa dessas ações: ${[
        some(required, { one: 'obrigatória', other: 'obrigatórias' }),
        some(recommended, { one: 'recomendada', other: 'recomendadas' }),
        some(optional, { one: 'opcional', other: 'opcionais' }),
      ].join(', ')}.`,
    summaryHigherRisk: (n: number) => {
      if (n === 0) return 'Nenhuma ação está marcada como mais arriscada.';
      if (n === 1)
        return 'Uma ação está marcada como mais arriscada: ela age em seu nome, pode alterar seus dados e não pergunta antes.';
      return `${capitalize(L.count(n, ACTION))} estão marcadas como mais arriscadas: elas agem em seu nome, podem alterar seus dados e não perguntam antes.`;
    },
  },

  grants: {
    heading: 'Vão pedir que você permita:',
    nothingToAllow:
      'Ninguém vai pedir que você permita nada neste serviço: o agente não usa a sua conta aqui.',
    unknown:
      'Quem publica não informou como funciona a API deste serviço, então não dá para saber aqui qual permissão exata vão pedir a você.',
    scopeWithoutDescription: 'O serviço não explica esta permissão.',
    alsoAllows: (n: number) =>
      n === 0
        ? 'Esta permissão não libera nada além do que o agente diz que faz.'
        : `Esta permissão também libera ${L.count(n, { one: 'outra ação', other: 'outras ações' })} neste serviço.`,
    alsoAllowsSummary: 'Ver o que mais ela libera',
    broaderLabel: 'Pede mais do que precisa',
    broader: (asked: string, needed: readonly string[]) => {
      const need =
        needed.length === 0
          ? 'as ações que ele declara não precisam de nenhuma permissão sua aqui'
          : `as ações que ele declara só precisam de “${needed.join('”, “')}”`;
      return `O agente pede “${asked}”, que libera mais do que ele precisa: ${need}.`;
    },
  },

  changes: {
    heading: (version: string) => `O que mudou na versão ${version}`,
    intro: (previousVersion: string, previousDate: string) =>
      `Em comparação com a versão ${previousVersion}, de ${L.date(previousDate)}, esta versão:`,
    historyHeading: 'Mudanças anteriores',
    historyVersion: (version: string, date: string, previousVersion: string) =>
      `Versão ${version} (${L.date(date)}), em comparação com a ${previousVersion}:`,
    notice: (version: string, date: string) => `Novas permissões na versão ${version} (${L.date(date)}).`,
    noticeLink: 'Ver o que mudou',
    sentence: changeSentence,
  },
};
