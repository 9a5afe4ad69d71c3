/** The shape of a RAM change the change sentences read (src/core/releases/compare.ts `RamChange`). */
export interface ChangeWordsInput {
  kind: 'added' | 'removed' | 'widened' | 'narrowed' | 'reworded';
  item: 'access' | 'resource' | 'operation';
  id: string;
  field?: string;
  from?: string | boolean | string[];
  to?: string | boolean | string[];
  label?: {
    whatItDoes?: string;
    resource?: string;
    owner?: string;
    actsAsYou?: boolean;
    withoutAsking?: boolean;
    changesData?: boolean;
  };
}
