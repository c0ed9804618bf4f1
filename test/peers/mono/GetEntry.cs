// Reads the entry document of the service at args[0] the way the C# sync client does (HttpWebRequest, Basic
// credentials), trusting what Mono's own store trusts. Prints the status and the body's first element, or the
// innermost error of the TLS handshake.
using System;
using System.IO;
using System.Net;
using System.Text;

class GetEntry {
  static int Main(string[] args) {
    try {
      var request = (HttpWebRequest)WebRequest.Create(args[0]);
      request.Headers.Add("Authorization", "Basic " + Convert.ToBase64String(Encoding.ASCII.GetBytes("demo:demo")));
      request.Headers.Add("X-Client-Specification", "2");
      using (var response = (HttpWebResponse)request.GetResponse())
      using (var body = new StreamReader(response.GetResponseStream())) {
        Console.WriteLine((int)response.StatusCode + " " + body.ReadToEnd().Split(' ')[0]);
      }
      return 0;
    } catch (Exception e) {
      var inner = e;
      while (inner.InnerException != null) inner = inner.InnerException;
      Console.WriteLine("failed: " + inner.Message);
      return 1;
    }
  }
}
