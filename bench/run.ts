// npm run bench: load benchmarks. The scenarios are added by the back-office and PEC issues.
console.log('Aucun scénario de benchmark pour le moment.');
