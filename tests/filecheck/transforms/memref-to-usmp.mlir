// RUN: usmp-opt %s --split-input-file -p memref-to-usmp,usmp-assign-pools | filecheck %s

// Straight-line code: a buffer lives from its allocation to its last use; a dealloc is a
// use that ends it, and a buffer allocated right after may start where it ended.
func.func @main() {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %a[%c0] : memref<4xf32>
  memref.store %f, %b[%c0] : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  memref.store %f, %c[%c0] : memref<4xf32>
  func.return
}

// CHECK:       usmp.pool @global_workspace workspace alignment 16
// CHECK:       func.func @main() {
// CHECK-NEXT:    %a = usmp.alloc_offset "a" @global_workspace[?] align 16 live [0, 7) : memref<4xf32>
// CHECK-NEXT:    %b = usmp.alloc_offset "b" @global_workspace[?] align 64 live [1, 6) : memref<4xf32>
// CHECK-NOT:     memref.dealloc
// CHECK:         %c = usmp.alloc_offset "c" @global_workspace[?] align 16 live [7, 9) : memref<4xf32>
// CHECK:       usmp.liveness

// -----

// A use inside a loop body keeps the buffer live through the whole loop.
func.func @main() {
  %a = memref.alloc() : memref<4xf32>
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %f, %a[%i] : memref<4xf32>
    scf.yield
  }
  %b = memref.alloc() : memref<4xf32>
  memref.store %f, %b[%c0] : memref<4xf32>
  func.return
}

// CHECK:         %a = usmp.alloc_offset "a" @global_workspace[?] align 16 live [0, 8) : memref<4xf32>
// CHECK:         %b = usmp.alloc_offset "b" @global_workspace[?] align 16 live [8, 10) : memref<4xf32>
// CHECK:       usmp.liveness

// -----

// Across calls: the callee's ops are numbered at the call site, a callee's own buffer
// gets one interval per call, and the callee's pool candidates follow its target.
func.func @op(%x: memref<4xf32>) {
  %ws = memref.alloc() : memref<8xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<4xf32>
  memref.store %v, %ws[%c0] : memref<8xf32>
  func.return
}
func.func @main() {
  %a = memref.alloc() : memref<4xf32>
  func.call @op(%a) : (memref<4xf32>) -> ()
  func.call @op(%a) : (memref<4xf32>) -> ()
  %b = memref.alloc() : memref<4xf32>
  func.call @op(%b) : (memref<4xf32>) -> ()
  func.return
}

// CHECK:       func.func @op
// CHECK-NEXT:    %ws = usmp.alloc_offset "ws" @global_workspace[?] align 16 live [2, 6) [8, 12) [15, 19) : memref<8xf32>
// CHECK:         %a = usmp.alloc_offset "a" @global_workspace[?] align 16 live [0, 13) : memref<4xf32>
// CHECK:         %b = usmp.alloc_offset "b" @global_workspace[?] align 16 live [13, 20) : memref<4xf32>
// CHECK:       usmp.liveness

// -----

// What cannot be planned safely stays a memref.alloc and says why.
func.func @escapes() -> memref<4xf32> {
  %r = memref.alloc() : memref<4xf32>
  func.return %r : memref<4xf32>
}
func.func @main(%n: index) {
  %d = memref.alloc(%n) : memref<?xf32>
  %r = func.call @escapes() : () -> memref<4xf32>
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  "scf.parallel"(%c0, %c4, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %p = memref.alloc() : memref<4xf32>
    "scf.reduce"() : () -> ()
  }) : (index, index, index) -> ()
  func.return
}
func.func @unused() {
  %u = memref.alloc() : memref<4xf32>
  func.return
}

// CHECK:  %r = memref.alloc() {usmp.unplanned = "escapes through func.return"} : memref<4xf32>
// CHECK:  %d = memref.alloc(%n) {usmp.unplanned = "dynamic shape"} : memref<?xf32>
// CHECK:  %p = memref.alloc() {usmp.unplanned = "inside a parallel loop"} : memref<4xf32>
// CHECK:  %u = memref.alloc() {usmp.unplanned = "not reachable from the entry function"} : memref<4xf32>
// CHECK-NOT: usmp.liveness

// -----

// Pools with targets serve only the functions of those targets, in declaration order.
usmp.pool @fast workspace alignment 32 size_hint 64 targets ["c"]
usmp.pool @slow workspace alignment 16
func.func @main() attributes {usmp.target = "c"} {
  %a = memref.alloc() : memref<4xf32>
  func.return
}

// CHECK:  %a = usmp.alloc_offset "a" [@fast, @slow][?] align 32 live [0, 1) : memref<4xf32>

// -----

// A use in another block of a CFG region, or a buffer's address taken as a number: the
// timeline cannot see how long the buffer lives, so it is left alone.
func.func @main() {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %p = "memref.extract_aligned_pointer_as_index"(%b) : (memref<4xf32>) -> index
  cf.br ^next
^next:
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %a[%c0] : memref<4xf32>
  func.return
}

// CHECK:  %a = memref.alloc() {usmp.unplanned = "used in another block (unstructured control flow)"} : memref<4xf32>
// CHECK:  %b = memref.alloc() {usmp.unplanned = "address taken by memref.extract_aligned_pointer_as_index"} : memref<4xf32>
