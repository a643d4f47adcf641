// The report names what the planner left alone, and why.
// RUN: usmp-opt %s --plan-pools -t usmp-report | filecheck %s
// RUN: usmp-opt %s --plan-pools -t 'usmp-report{format=json}' | filecheck %s --check-prefix=JSON

func.func @main(%n: index) {
  %dynamic = memref.alloc(%n) : memref<?xf32>
  %fixed = memref.alloc() : memref<4xf32>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %fixed[%c0] : memref<4xf32>
  memref.store %f, %dynamic[%c0] : memref<?xf32>
  func.return
}

// CHECK:      not planned:
// CHECK-NEXT:   dynamic               dynamic shape
// JSON: "unplanned": [{"name": "dynamic", "reason": "dynamic shape"}], "plan": {"algorithm": "default", "proven_optimal": true, "time_limit_reached": false}}
