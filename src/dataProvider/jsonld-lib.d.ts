// The jsonld library by its file, which src/dataProvider/jsonldOnDemand.ts loads (the package name is aliased to it).
declare module 'jsonld/lib/jsonld.js' {
  import jsonld from 'jsonld';
  export default jsonld;
}
