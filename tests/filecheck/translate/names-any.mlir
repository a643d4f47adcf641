// Any name round-trips (issue 19): a non-ASCII letter, a comma, a quote, a Python keyword.
// The printed IR parses back with the names as written (xDSL escapes `ü` as `\C3\BC`), in
// both forms.
// RUN: usmp-opt %s | usmp-opt | filecheck %s
// RUN: usmp-opt %s --print-op-generic | usmp-opt | filecheck %s
// CHECK:      tir.prim_func @main(%{{.*}}: !tir.buffer<4xf32> {tir.name = "lambda"}, %{{.*}}: !tir.buffer<4xf32> {tir.name = "y,\22q\22"})
// CHECK-NEXT:   %{{.*}} = tir.alloc_buffer "b\C3\BCffer" : !tir.buffer<4xf32>
// CHECK-NEXT:   %{{.*}} = tir.alloc_buffer "class" : !tir.buffer<4xf32>
// CHECK-NEXT:   %{{.*}} = tir.alloc_buffer "a,b" : !tir.buffer<4xf32>
// CHECK-NEXT:   %{{.*}} = tir.alloc_buffer "a,b" : !tir.buffer<4xf32>

// Planned, the module parses back too, and the report names each buffer as written; a
// repeated name gets TVM's count, whatever its characters.
// RUN: usmp-opt %s --plan-pools | usmp-opt | filecheck %s --check-prefix=PLANNED
// PLANNED: tir.decl_buffer "b\C3\BCffer"
// RUN: usmp-opt %s --plan-pools -t usmp-report | filecheck %s --check-prefix=REPORT
// REPORT:      buffer {{ +}}pool
// REPORT-NEXT: büffer {{ +}}global_workspace
// REPORT-NEXT: class {{ +}}global_workspace
// REPORT-NEXT: a,b {{ +}}global_workspace
// REPORT-NEXT: a,b2 {{ +}}global_workspace

// The CSV format has no quoting: a name it cannot hold is a diagnostic at its buffer.
// RUN: usmp-opt %s -p tir-to-usmp,usmp-assign-pools,usmp-plan > %t.planned.mlir
// RUN: %exit-code usmp-translate --export-csv %t.planned.mlir | filecheck %s --check-prefix=CSV
// CSV:      {{\A.*}}planned.mlir:{{[0-9]+}}:{{[0-9]+}}: error: buffer 'a,b' cannot be a CSV id: the format is not quoted, so an id holds no comma or line break and no space at its ends
// CSV-NEXT: exit=1

tir.prim_func @main(%x: !tir.buffer<4xf32> {tir.name = "lambda"}, %y: !tir.buffer<4xf32> {tir.name = "y,\"q\""}) attributes {global_symbol = "main"} {
  %u = tir.alloc_buffer "büffer" : !tir.buffer<4xf32>
  %k = tir.alloc_buffer "class" : !tir.buffer<4xf32>
  %a = tir.alloc_buffer "a,b" : !tir.buffer<4xf32>
  %b = tir.alloc_buffer "a,b" : !tir.buffer<4xf32>
  %c0 = arith.constant 0 : i32
  %v = tir.load %x[%c0] : f32
  tir.store %v, %u[%c0]
  tir.store %v, %k[%c0]
  tir.store %v, %a[%c0]
  tir.store %v, %b[%c0]
  %w = tir.load %u[%c0] : f32
  %w2 = tir.load %k[%c0] : f32
  %w3 = tir.load %a[%c0] : f32
  %w4 = tir.load %b[%c0] : f32
  %s = arith.addf %w, %w2 : f32
  %s2 = arith.addf %w3, %w4 : f32
  %s3 = arith.addf %s, %s2 : f32
  tir.store %s3, %y[%c0]
}
