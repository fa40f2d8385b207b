// esbuild emits imported CSS into a sibling .css file; TypeScript only needs to know the import is valid.
declare module '*.css';
