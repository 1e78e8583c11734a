// "Impossible de supprimer : 3 centres sont rattachés à cette entreprise." with French agreement.
export interface Noun {
  one: string;
  many: string;
  feminine?: boolean;
}

export function stillAttached(noun: Noun, to: string, verb = 'rattaché') {
  return (n: number) => {
    const agreed = `${verb}${noun.feminine ? 'e' : ''}${n > 1 ? 's' : ''}`;
    return `Impossible de supprimer : ${n} ${n > 1 ? noun.many : noun.one} ${n > 1 ? 'sont' : 'est'} ${agreed} ${to}.`;
  };
}
