func.func @f(%a: i99999999999) {
  func.return
}
